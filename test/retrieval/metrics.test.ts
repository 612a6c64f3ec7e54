import { describe, expect, it } from 'vitest';
import { meanMetrics, turnMetrics } from '../../src/retrieval/metrics.ts';

describe('retrieval metrics', () => {
  const ranked = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l'];

  it('recall@k, MRR, nDCG@10 and all-needed for a two-tool turn', () => {
    const m = turnMetrics(ranked, ['b', 'l']);
    expect(m.recallAt).toEqual({ 1: 0, 3: 0.5, 5: 0.5, 10: 0.5, 20: 1 });
    expect(m.reciprocalRank).toBe(0.5);
    expect(m.ndcgAt10).toBeCloseTo(1 / Math.log2(3) / (1 + 1 / Math.log2(3)), 12);
    expect(m.allNeededAt10).toBe(false);
  });

  it('served@k: an acceptable alternative in the top k stands in for one needed tool that is not', () => {
    const m = turnMetrics(ranked, ['x', 'y'], ['c', 'd']);
    expect(m.recallAt[10]).toBe(0);
    expect(m.servedAt[3]).toBe(0.5);
    expect(m.servedAt[5]).toBe(1);
    // An alternative never counts twice for a tool that was found.
    expect(turnMetrics(ranked, ['a'], ['b']).servedAt[3]).toBe(1);
  });

  it('means over turns', () => {
    const mean = meanMetrics([turnMetrics(ranked, ['a']), turnMetrics(ranked, ['zz'])]);
    expect(mean.turns).toBe(2);
    expect(mean.recallAt[1]).toBe(0.5);
    expect(mean.mrr).toBe(0.5);
    expect(mean.allNeededAt10).toBe(0.5);
  });

  it('a turn without needed tools has no metrics', () => {
    expect(() => turnMetrics(ranked, [])).toThrow(/without needed tools/);
  });
});
