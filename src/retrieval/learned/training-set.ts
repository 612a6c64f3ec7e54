import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { loadCatalog } from '../../catalog/load.ts';
import { SERVER_SPECS } from '../../catalog/servers/index.ts';
import type { CatalogTool } from '../../catalog/types.ts';
import { TaskGenerator } from '../../tasks/generate.ts';
import { loadTasks } from '../../tasks/load.ts';
import type { Task } from '../../tasks/types.ts';
import { turnQuery, type QueryMode } from '../query.ts';
import { DEFAULT_SEED } from '../../util/rng.ts';

/** What the learned reranker trains on: a catalog and labelled turns over it. */
export interface TrainingSet {
  tools: readonly CatalogTool[];
  /** Labelled turns with their query text; `taskId` names where each came from (tests check it is never an evaluated task). */
  turns: readonly TrainingTurn[];
  source: string;
}

export interface TrainingTurn {
  taskId: string;
  query: string;
  tools: readonly string[];
}

/** Every tool turn of the tasks, asked as `mode` builds the query. */
function trainingTurns(
  tasks: readonly Task[],
  mode: QueryMode,
  idPrefix = '',
  keep: (user: string) => boolean = () => true,
): TrainingTurn[] {
  return tasks.flatMap((t) =>
    t.turns.flatMap((turn, i) =>
      turn.tools.length > 0 && keep(turn.user)
        ? [{ taskId: `${idPrefix}${t.id}`, query: turnQuery(t.turns, i, mode), tools: turn.tools }]
        : [],
    ),
  );
}

/** Seeds of the evaluated synthetic task sets (MEASUREMENT_PARAMS.seeds); their messages are kept out of training. */
const EVALUATED_SEEDS = [42, 43, 44];

const REPO_ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..', '..');

/** What the default training set is, in one line (the learned retriever's `fittedOn`). */
export const DEFAULT_TRAINING_DESCRIPTION = `synthetic-120 seed ${DEFAULT_SEED} only: tasks/calibration.jsonl and the usage-history sample (messages of evaluated synthetic tasks removed); no real or LiveMCPBench request`;

/**
 * The default training set: the committed seed-42 synthetic catalog, its held-out calibration
 * tasks (`tasks/calibration.jsonl`, ids `cal…`) and the usage-history sample (seed 42, the
 * same 500 tasks B2's curator reads; ids prefixed `history:`). Never the evaluated tasks and never
 * tasks/real: a calibration or history turn whose exact message occurs in an evaluated
 * synthetic task set (seeds 42–44) is dropped too.
 */
export function defaultTrainingSet(mode: QueryMode, root = REPO_ROOT): TrainingSet {
  const catalog = loadCatalog(join(root, 'catalogs', 'synthetic-120'));
  const calibration = loadTasks(join(root, 'tasks', 'calibration.jsonl'), catalog);
  const generator = new TaskGenerator(SERVER_SPECS);
  const evaluated = new Set(EVALUATED_SEEDS.flatMap((s) => generator.generate(s).flatMap((t) => t.turns.map((u) => u.user))));
  const history = generator.generate(DEFAULT_SEED, 'history');
  // The calibration tasks avoid seed 42's messages only; seeds 43 and 44 are evaluated too.
  const unseen = (user: string) => !evaluated.has(user);
  const turns = [...trainingTurns(calibration, mode, '', unseen), ...trainingTurns(history, mode, 'history:', unseen)];
  return {
    tools: catalog.tools,
    turns,
    source: `synthetic-120 seed ${DEFAULT_SEED}: tasks/calibration.jsonl + the ${history.length}-task history sample (turns whose message is evaluated in seeds 42–44 removed)`,
  };
}
