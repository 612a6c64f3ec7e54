import { describe, expect, it } from 'vitest';
import { cosineScores, dot, l2Normalize } from '../../src/embed/vector.ts';
import { queryWords, WordAssociations, type ToolWords } from '../../src/retrieval/learned/features.ts';
import { Rng } from '../../src/util/rng.ts';

// The fast paths must equal the plain definitions bit for bit: results files are compared byte
// for byte across versions.

const words = (list: string[]): ToolWords => {
  const name = new Set(list.slice(0, 2));
  const parameters = new Set(list.slice(2));
  return { name, server: new Set(), parameters, associated: new Set([...name, ...parameters]) };
};

describe('WordAssociations.scoreAll', () => {
  it('equals score() of each tool, bit for bit', () => {
    const rng = new Rng(42, 'associations');
    const vocab = Array.from({ length: 40 }, (_, i) => `w${i}`);
    const entries: [string, string, number][] = [];
    for (const q of vocab) for (const w of vocab) if (rng.chance(0.08)) entries.push([q, w, rng.next() * 3 + 1e-3]);
    const assoc = WordAssociations.fromEntries(entries);
    const tools = Array.from({ length: 60 }, () => words(rng.shuffle(vocab).slice(0, rng.int(0, 7))));
    let fired = 0;
    const into = new Float64Array(tools.length + 5);
    for (let k = 0; k < 50; k++) {
      const query = queryWords(rng.shuffle(vocab).slice(0, rng.int(0, 9)).join(' '));
      const all = assoc.scoreAll(query, tools);
      tools.forEach((t, i) => expect(Object.is(all[i], assoc.score(query, t))).toBe(true));
      // Into a reused, dirty buffer longer than the tool list (the reranker's scratch): the same bits.
      const reused = assoc.scoreAll(query, tools, into.fill(7));
      tools.forEach((_, i) => expect(Object.is(reused[i], all[i])).toBe(true));
      expect(reused.length).toBe(tools.length);
      fired += all.filter((x) => x > 0).length;
    }
    expect(fired).toBeGreaterThan(100); // the associations do fire
  });
});

describe('cosineScores', () => {
  it('equals fround(dot) for dense and sparse queries, bit for bit', () => {
    const rng = new Rng(42, 'cosine');
    const vec = (density: number) => l2Normalize(Float32Array.from({ length: 64 }, () => (rng.chance(density) ? rng.normal() : 0)));
    const vectors = Array.from({ length: 30 }, () => vec(0.5));
    for (const density of [1, 0.5, 0.1, 0.03, 0]) {
      const q = vec(density);
      const scores = cosineScores(q, vectors);
      vectors.forEach((v, i) => expect(Object.is(scores[i], Math.fround(dot(q, v)))).toBe(true));
    }
  });
});
