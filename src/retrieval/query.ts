import type { TaskTurn } from '../tasks/types.ts';

/**
 * The text a retriever is asked with for a turn. `message`: the user's message alone.
 * `rolling`: the message followed by the previous ROLLING_TURNS user messages of the task,
 * most recent first (the paper's "optionally concatenated with a rolling context summary",
 * §4.2): follow-ups such as "ok, now fetch these docs links together" carry little intent
 * on their own.
 */
export type QueryMode = 'message' | 'rolling';

export const QUERY_MODES: readonly QueryMode[] = ['message', 'rolling'];

/**
 * The query the pipelines and the retrieval tables use. Chosen on the synthetic tasks (R@10 of
 * the learned reranker 0.70 with the message alone, 0.49 with the rolling context; the
 * calibration tasks are single-turn and cannot decide it); both are reported on both sets.
 */
export const DEFAULT_QUERY_MODE: QueryMode = 'message';

/** Earlier user messages in a rolling query. */
const ROLLING_TURNS = 2;

export function turnQuery(turns: readonly Pick<TaskTurn, 'user'>[], index: number, mode: QueryMode): string {
  const message = turns[index]!.user;
  if (mode === 'message' || index === 0) return message;
  const earlier = turns
    .slice(Math.max(0, index - ROLLING_TURNS), index)
    .map((t) => t.user)
    .reverse();
  return [message, ...earlier].join('\n');
}

export function describeQueryMode(mode: QueryMode): string {
  return mode === 'message' ? 'user message' : `user message + previous ${ROLLING_TURNS} user messages (rolling context)`;
}
