import type { CatalogTool } from '../catalog/types.ts';
import type { Task, TaskKind } from '../tasks/types.ts';
import { meanMetrics, metricsFromRanks, turnMetrics, type MeanMetrics, type TurnMetrics } from './metrics.ts';
import { rankOf } from './rank-order.ts';
import { turnQuery, type QueryMode } from './query.ts';
import { Ranking, skipReason, type Retriever } from './types.ts';

/** One retriever's metrics on a task set: overall and by task kind, turn position and server. */
export interface RetrievalEvaluation {
  retriever: string;
  description: string;
  toolText: string;
  /** What its trained parts were fitted on for this catalog (undefined: nothing fitted). */
  fittedOn?: string;
  query: QueryMode;
  overall: MeanMetrics;
  byKind: Partial<Record<TaskKind, MeanMetrics>>;
  byPosition: { first: MeanMetrics; followUp: MeanMetrics };
  /** By server: the turns that need a tool of it. */
  byServer: Record<string, MeanMetrics>;
}

interface ScoredTurn {
  task: Task;
  position: 'first' | 'followUp';
  metrics: TurnMetrics;
  servers: string[];
}

/** Rank every tool for every tool turn of the tasks (one batched call) and average the metrics. */
export async function evaluateRetriever(
  retriever: Retriever,
  tools: readonly CatalogTool[],
  tasks: readonly Task[],
  mode: QueryMode,
): Promise<RetrievalEvaluation> {
  const fitted = await retriever.fit(tools);
  const serverOf = new Map(tools.map((t) => [t.id, t.server]));
  const index = new Map(fitted.ids.map((id, i) => [id, i]));
  const turns = tasks.flatMap((task) => task.turns.flatMap((turn, i) => (turn.tools.length ? [{ task, i, turn }] : [])));
  const scores = await fitted.score(turns.map(({ task, i }) => turnQuery(task.turns, i, mode)));
  const scored: ScoredTurn[] = turns.map(({ task, i, turn }, q) => ({
    task,
    position: i === 0 ? 'first' : 'followUp',
    metrics: metricsOf(fitted.ids, index, scores[q]!, turn.tools, turn.acceptable),
    servers: [...new Set(turn.tools.map((id) => serverOf.get(id)!))],
  }));
  const of = (keep: (t: ScoredTurn) => boolean) => meanMetrics(scored.filter(keep).map((t) => t.metrics));
  const kinds = [...new Set(tasks.map((t) => t.kind))];
  const servers = [...new Set(tools.map((t) => t.server))];
  return {
    retriever: retriever.name,
    description: retriever.description,
    toolText: retriever.toolText,
    ...(fitted.fittedOn ? { fittedOn: fitted.fittedOn } : {}),
    query: mode,
    overall: of(() => true),
    byKind: Object.fromEntries(kinds.map((k) => [k, of((t) => t.task.kind === k)])),
    byPosition: { first: of((t) => t.position === 'first'), followUp: of((t) => t.position === 'followUp') },
    byServer: Object.fromEntries(servers.map((s) => [s, of((t) => t.servers.includes(s))])),
  };
}

/** A retriever left out of an evaluation, and why (its table prints skippedNotes). */
export interface SkippedRetriever {
  retriever: string;
  reason: string;
}

/**
 * Each retriever in turn (evaluateRetriever), except one that cannot rank this many tools (its
 * minTools): that one is skipped and listed, so a two-tool catalog still gets every other row.
 */
export async function evaluateRetrievers(
  retrievers: readonly Retriever[],
  tools: readonly CatalogTool[],
  tasks: readonly Task[],
  mode: QueryMode,
): Promise<{ evaluations: RetrievalEvaluation[]; skipped: SkippedRetriever[] }> {
  const evaluations: RetrievalEvaluation[] = [];
  const skipped: SkippedRetriever[] = [];
  for (const retriever of retrievers) {
    const reason = skipReason(retriever, tools.length);
    if (reason) skipped.push({ retriever: retriever.name, reason });
    else evaluations.push(await evaluateRetriever(retriever, tools, tasks, mode));
  }
  return { evaluations, skipped };
}

/** The table notes of skipped retrievers. */
export function skippedNotes(skipped: readonly SkippedRetriever[]): string[] {
  return skipped.map((s) => `${s.retriever}: skipped: ${s.reason}.`);
}

/**
 * A turn's metrics from its scores: the needed and acceptable tools' ranks counted directly
 * (a few tools, a pass over the scores each) rather than ordering every tool, which took most
 * of an evaluation on the larger catalogs; by the full ranking when a score is NaN.
 */
function metricsOf(
  ids: readonly string[],
  index: ReadonlyMap<string, number>,
  scores: Float64Array,
  needed: readonly string[],
  acceptable: readonly string[] = [],
): TurnMetrics {
  const rank = (id: string) => {
    const i = index.get(id);
    return i === undefined ? Infinity : rankOf(scores, i);
  };
  const alternatives = acceptable.filter((id) => !needed.includes(id));
  const neededRanks = needed.map(rank);
  const alternativeRanks = alternatives.map(rank);
  if (neededRanks.includes(undefined) || alternativeRanks.includes(undefined))
    return turnMetrics(new Ranking(ids, scores).ids(), needed, acceptable);
  return metricsFromRanks(neededRanks as number[], alternativeRanks as number[]);
}
