import type { Catalog } from '../catalog/types.ts';
import type { Pipeline } from '../pipelines/types.ts';
import type { Task } from '../tasks/types.ts';
import { driveTurns } from './run-pipeline.ts';

/** What a search pipeline's searches found, measured without counting a token. */
export interface SearchRecall {
  /** Mean over tool turns of the share of needed tools whose definitions are loaded (the tables' recall). */
  recall: number;
  /** Share of needed tools (pooled over tool turns) among the results of the turn's first search. */
  firstSearch: number;
  /** Searches (discovery calls) per tool turn. */
  searchesPerToolTurn: number;
  toolTurns: number;
  /** Every needed tool of every tool turn: whether its definition was loaded, and how many definitions were. */
  needs: { present: boolean; loaded: number }[];
}

/**
 * Drives a prepared search pipeline over the tasks and reads its exposure only: the band of the
 * host tool search table (the same pipeline with the lower and upper searching model) and the
 * search-calibration study. `firstResults` reads the ids a discovery call returned (a search's
 * output); undefined: the first-search share is not measured (NaN).
 */
export async function searchRecall(
  pipeline: Pipeline,
  tasks: readonly Task[],
  catalog: Catalog,
  firstResults?: (output: string) => readonly string[],
): Promise<SearchRecall> {
  let recallSum = 0;
  let toolTurns = 0;
  let searches = 0;
  let firstFound = 0;
  let needed = 0;
  const needs: SearchRecall['needs'] = [];
  await driveTurns(pipeline, tasks, catalog, ({ turn, result }) => {
    if (!turn.tools.length) return;
    toolTurns++;
    const present = new Set(result.exposure.fullSchemaTools);
    recallSum += turn.tools.filter((t) => present.has(t)).length / turn.tools.length;
    for (const t of turn.tools) needs.push({ present: present.has(t), loaded: present.size });
    searches += result.exposure.discoveryCalls.length;
    needed += turn.tools.length;
    const first = result.exposure.discoveryCalls[0];
    if (firstResults && first) {
      const got = new Set(firstResults(first.output));
      firstFound += turn.tools.filter((t) => got.has(t)).length;
    }
  });
  return {
    recall: toolTurns ? recallSum / toolTurns : 0,
    firstSearch: firstResults && needed ? firstFound / needed : Number.NaN,
    searchesPerToolTurn: toolTurns ? searches / toolTurns : 0,
    toolTurns,
    needs,
  };
}
