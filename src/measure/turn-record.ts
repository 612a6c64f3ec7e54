import type { ProjectionTurn } from '../sim/projection/turn-model.ts';
import type { TranscriptMetrics, TurnMetrics } from './turn-metrics.ts';

/**
 * One measured turn, as written to the results (`turns/<pipeline>.seed<seed>.jsonl`): the
 * turn's identity and exposure as the projection reads them (ProjectionTurn: pipeline, seed,
 * task id and kind, 0-based turn index and the task's number of turns, neededListed, ...), its
 * prompt metrics, and which tools it needed and showed in full.
 */
export interface TurnRecord extends TurnMetrics, TranscriptMetrics, ProjectionTurn {
  neededTools: string[];
  /** Ids of tools whose full schema was in the prompt. */
  schemaTools: readonly string[];
}
