import type { TaskKind } from '../tasks/types.ts';
import type { TurnMetrics } from './turn-metrics.ts';

/** One measured turn, as written to the results (`turns/<pipeline>.seed<seed>.jsonl`). */
export interface TurnRecord extends TurnMetrics {
  pipeline: string;
  seed: number;
  taskId: string;
  kind: TaskKind;
  ambiguous: boolean;
  /** 0-based turn index and the task's number of turns. */
  turn: number;
  turns: number;
  neededTools: string[];
  /** Ids of tools whose full schema was in the prompt. */
  schemaTools: readonly string[];
  /** Needed tools the model could at least see by name (summary, CLI list...). */
  neededListed: number;
}
