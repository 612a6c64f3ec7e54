import type { Task } from '../tasks/types.ts';
import { turnQuery, type QueryMode } from './query.ts';
import { Ranking, type FittedRetriever, type RankedTool, type ScoreScale } from './types.ts';
import { cached, runCache } from '../util/run-scope.ts';

// Rankings by fitted retriever, query mode and task: every pipeline that uses the same
// retriever on the same task (B3, Tool Attention and its ablations, ADOL) ranks it once.
const RANKINGS = runCache(
  'task rankings by fitted retriever, query mode and task',
  () => new WeakMap<FittedRetriever, Map<QueryMode, WeakMap<Task, Promise<Ranking[]>>>>(),
);

/** Every turn's ranking of all tools, best first, from one batched score call per task. */
export function taskRankings(fitted: FittedRetriever, task: Task, mode: QueryMode): Promise<Ranking[]> {
  const memo = cached(RANKINGS);
  let byMode = memo.get(fitted);
  if (!byMode) memo.set(fitted, (byMode = new Map()));
  let byTask = byMode.get(mode);
  if (!byTask) byMode.set(mode, (byTask = new WeakMap()));
  let r = byTask.get(task);
  if (!r) {
    r = fitted
      .score(task.turns.map((_, i) => turnQuery(task.turns, i, mode)))
      .then((scores) => scores.map((s) => new Ranking(fitted.ids, s)));
    byTask.set(task, r);
  }
  return r;
}

/**
 * The θ scale, a common [0, 1]-ish scale for the scores of one query: cosines and
 * probabilities as they are; unbounded scores (BM25, fusion) divided by the query's best score,
 * so the best tool scores 1 and θ reads as "at least θ of the best" (a query matching nothing
 * scores 0 everywhere). `best` is the query's highest raw score.
 */
export function thetaScale(scale: ScoreScale, best: number): (score: number) => number {
  if (scale !== 'unbounded') return (score) => score;
  return (score) => (best > 0 ? score / best : 0);
}

/** A ranking's scores on the θ scale (thetaScale), in rank order. */
export function* normaliseRanking(ranked: Iterable<RankedTool>, scale: ScoreScale): Iterable<RankedTool> {
  if (scale !== 'unbounded') {
    yield* ranked;
    return;
  }
  let toTheta: ((score: number) => number) | undefined;
  for (const r of ranked) {
    toTheta ??= thetaScale(scale, r.score);
    yield { id: r.id, score: toTheta(r.score) };
  }
}
