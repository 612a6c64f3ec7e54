import type { Catalog } from '../catalog/types.ts';
import { RecordCompactor } from './compact-records.ts';
import type { TurnRecord } from './turn-record.ts';
import { distinctIds } from './distinct-ids.ts';
import { measureTranscript, measureTurn, type TurnHosts } from './turn-metrics.ts';
import type { AgentState, Pipeline, PromptSection, TurnResult, TurnTranscript } from '../pipelines/types.ts';
import { directTranscript, sharedParts } from '../prompt/shared-parts.ts';
import type { Task, TaskTurn } from '../tasks/types.ts';
import type { TokenCounter } from '../tokens/counter.ts';

export type { TurnRecord } from './turn-record.ts';

export interface RunOptions extends TurnHosts {
  catalog: Catalog;
  tokens: TokenCounter;
  seed: number;
  /** Called after each task (for progress bars). */
  onTask?: () => void;
  /** Receives each turn's structured events (routing decisions...). */
  onEvents?: (taskId: string, turn: number, events: Record<string, unknown>[]) => void;
  /** Sees each turn as driven, after it is measured (a study's watcher: Study.watchTurns). */
  onTurn?: (turn: DrivenTurn) => void;
}

export interface DrivenTurn {
  task: Task;
  turnIndex: number;
  turn: TaskTurn;
  result: TurnResult;
  /** What the turn left in the context (the pipeline's transcript, or the direct one). */
  left: TurnTranscript;
}

/**
 * Drives one pipeline through every turn of every task: builds the shared prompt parts,
 * asks the pipeline for the exact prompt, hands the turn to `onTurn`, then appends the turn's
 * transcript to the history and the called tools to the agent state. Studies that need the
 * prompt sections themselves use this directly.
 */
export async function driveTurns(
  pipeline: Pipeline,
  tasks: readonly Task[],
  catalog: Catalog,
  onTurn: (turn: DrivenTurn) => void,
  onTaskDone?: () => void,
): Promise<void> {
  const nameOf = new Map(catalog.tools.map((t) => [t.id, t.name]));
  for (const task of tasks) {
    pipeline.startTask?.(task);
    const history: PromptSection[] = [];
    const toolOutputs: string[] = [];
    // The task's scopes, one Set for all its turns (AgentState.authScopes is read-only).
    const authScopes: ReadonlySet<string> = new Set(task.initialState.authScopes);
    for (const [turnIndex, turn] of task.turns.entries()) {
      const state: AgentState = { authScopes, toolOutputs: [...toolOutputs] };
      const result = await pipeline.turn({ task, turnIndex, turn, state, shared: sharedParts(history, turn.user) });
      const left = result.transcript ?? directTranscript(catalog, turnIndex, turn);
      onTurn({ task, turnIndex, turn, result, left });
      history.push(left.section);
      toolOutputs.push(...turn.tools.map((id) => nameOf.get(id)!));
    }
    onTaskDone?.();
    // Pipelines resolve their promises at once, so without this a whole run is one macrotask
    // and the thread could not hear from its worker lanes (src/bench/execute/lanes.ts) until it ends.
    await yieldToEventLoop();
  }
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Drives a pipeline over the tasks and measures every turn (see driveTurns). */
export async function runPipeline(pipeline: Pipeline, tasks: readonly Task[], opts: RunOptions): Promise<TurnRecord[]> {
  const records: TurnRecord[] = [];
  // Records share equal strings and tool lists (every B1 turn lists all tools: as a list per
  // record they were a large part of a run's records).
  const compactor = new RecordCompactor();
  // The prompt of the task's turn before, for the shared prefix (driveTurns runs a task's turns in order).
  let previous: readonly PromptSection[] | undefined;
  await driveTurns(
    pipeline,
    tasks,
    opts.catalog,
    (driven) => {
      const { task, turnIndex, turn, result, left } = driven;
      if (result.events?.length) opts.onEvents?.(task.id, turnIndex, result.events);
      records.push(
        compactor.compact({
          pipeline: pipeline.id,
          seed: opts.seed,
          taskId: task.id,
          kind: task.kind,
          ambiguous: task.flags.ambiguous,
          turn: turnIndex,
          turns: task.turns.length,
          neededTools: turn.tools,
          schemaTools: distinctIds(result.exposure.fullSchemaTools),
          // A turn needs a few tools; a Set of every listed tool per turn cost more than the scans.
          neededListed: turn.tools.filter((t) => result.exposure.listedTools.includes(t)).length,
          ...measureTurn(result, turn.tools, opts.tokens, opts, turnIndex === 0 ? undefined : previous),
          ...measureTranscript(left, result.exposure.discoveryCalls.length, opts.tokens),
        }),
      );
      previous = result.prompt.sections;
      opts.onTurn?.(driven);
    },
    opts.onTask,
  );
  return records;
}
