import { describe, expect, it } from 'vitest';
import { benchRouterLatency, percentile } from '../../src/embed/bench-router-latency.ts';
import { createTfidfEncoder } from '../../src/embed/tfidf.ts';
import { ExactFlatIpIndex } from '../../src/index/exact-flat-ip.ts';

describe('router latency bench', () => {
  it('interpolates percentiles', () => {
    expect(percentile([1, 2, 3, 4, 5], 0.5)).toBe(3);
    expect(percentile([0, 10], 0.95)).toBeCloseTo(9.5);
  });

  it('measures encode and search separately', async () => {
    const corpus = ['create issue', 'list issues', 'send message', 'list channels', 'upload file'];
    const enc = createTfidfEncoder({ corpus });
    const index = new ExactFlatIpIndex(enc.dim);
    index.add(
      corpus.map((_, i) => `t${i}`),
      await enc.embed(corpus),
    );
    const r = await benchRouterLatency(enc, index, ['open an issue', 'post a message'], { k: 3, timeMs: 20, iterations: 10 });
    expect(r).toMatchObject({ encoder: 'tfidf', encoderCached: false, index: 'exact-flat-ip', indexSize: 5, queries: 2, k: 3 });
    for (const s of [r.encodeMs, r.searchMs]) {
      expect(s.samples).toBeGreaterThanOrEqual(10);
      expect(s.p50).toBeGreaterThanOrEqual(0);
      expect(s.p95).toBeGreaterThanOrEqual(s.p50);
    }
  });
});
