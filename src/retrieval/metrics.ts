/**
 * Retrieval metrics for one tool turn, from the ranked tool ids. `needed` are the turn's
 * tools; `acceptable` the tools that would also serve it.
 */
export const RECALL_KS = [1, 3, 5, 10, 20] as const;
export type RecallK = (typeof RECALL_KS)[number];

/** Cut-offs of "every needed tool in the top k": a request that needs several tools is served only when all are there. */
export const ALL_NEEDED_KS = [5, 10, 20] as const;
export type AllNeededK = (typeof ALL_NEEDED_KS)[number];

export interface TurnMetrics {
  /** Share of needed tools in the top k. */
  recallAt: Record<RecallK, number>;
  /**
   * Share of needed tools served in the top k: a needed tool counts when it is there, and each
   * acceptable alternative in the top k stands in for one needed tool that is not.
   */
  servedAt: Record<RecallK, number>;
  /** 1 / rank of the first needed tool. */
  reciprocalRank: number;
  /** Binary-relevance nDCG over the top 10. */
  ndcgAt10: number;
  /** Every needed tool is in the top 10. */
  allNeededAt10: boolean;
  /** Every needed tool is in the top k, for k in ALL_NEEDED_KS. */
  allNeededAt: Record<AllNeededK, boolean>;
  /** How many tools the turn needs. */
  needed: number;
}

export function turnMetrics(ranked: readonly string[], needed: readonly string[], acceptable: readonly string[] = []): TurnMetrics {
  const rank = new Map(ranked.map((id, i) => [id, i + 1]));
  return metricsFromRanks(
    needed.map((id) => rank.get(id) ?? Infinity),
    acceptable.filter((id) => !needed.includes(id)).map((id) => rank.get(id) ?? Infinity),
  );
}

/**
 * The same metrics from the 1-based ranks of the needed tools and of the acceptable alternatives
 * (Infinity: not ranked), for a caller that knows the ranks without ordering every tool.
 */
export function metricsFromRanks(neededRanks: readonly number[], alternativeRanks: readonly number[] = []): TurnMetrics {
  const needed = neededRanks;
  if (needed.length === 0) throw new Error('turnMetrics: a turn without needed tools has no retrieval metrics');
  const within = (ranks: readonly number[], k: number) => ranks.filter((r) => r <= k).length;
  const recallAt = {} as Record<RecallK, number>;
  const servedAt = {} as Record<RecallK, number>;
  for (const k of RECALL_KS) {
    const found = within(neededRanks, k);
    recallAt[k] = found / needed.length;
    servedAt[k] = (found + Math.min(needed.length - found, within(alternativeRanks, k))) / needed.length;
  }
  const first = Math.min(...neededRanks);
  let dcg = 0;
  for (const r of neededRanks) if (r <= 10) dcg += 1 / Math.log2(r + 1);
  let ideal = 0;
  for (let i = 1; i <= Math.min(10, needed.length); i++) ideal += 1 / Math.log2(i + 1);
  return {
    recallAt,
    servedAt,
    reciprocalRank: Number.isFinite(first) ? 1 / first : 0,
    ndcgAt10: dcg / ideal,
    allNeededAt10: within(neededRanks, 10) === needed.length,
    allNeededAt: Object.fromEntries(ALL_NEEDED_KS.map((k) => [k, within(neededRanks, k) === needed.length])) as Record<AllNeededK, boolean>,
    needed: needed.length,
  };
}

/** Mean of many turns' metrics. */
export interface MeanMetrics {
  turns: number;
  recallAt: Record<RecallK, number>;
  servedAt: Record<RecallK, number>;
  mrr: number;
  ndcgAt10: number;
  allNeededAt10: number;
  /** Share of turns with every needed tool in the top k. */
  allNeededAt: Record<AllNeededK, number>;
  /** Mean number of tools a turn needs. */
  meanNeeded: number;
}

export function meanMetrics(turns: readonly TurnMetrics[]): MeanMetrics {
  const n = turns.length;
  const mean = (f: (t: TurnMetrics) => number) => (n ? turns.reduce((s, t) => s + f(t), 0) / n : NaN);
  const at = (f: (t: TurnMetrics) => Record<RecallK, number>) =>
    Object.fromEntries(RECALL_KS.map((k) => [k, mean((t) => f(t)[k])])) as Record<RecallK, number>;
  return {
    turns: n,
    recallAt: at((t) => t.recallAt),
    servedAt: at((t) => t.servedAt),
    mrr: mean((t) => t.reciprocalRank),
    ndcgAt10: mean((t) => t.ndcgAt10),
    allNeededAt10: mean((t) => (t.allNeededAt10 ? 1 : 0)),
    allNeededAt: Object.fromEntries(ALL_NEEDED_KS.map((k) => [k, mean((t) => (t.allNeededAt[k] ? 1 : 0))])) as Record<AllNeededK, number>,
    meanNeeded: mean((t) => t.needed),
  };
}
