import type { Encoder } from '../../../src/embed/types.ts';

/**
 * A tiny deterministic encoder for unit tests: hashed bag of content words (numbers and
 * stopwords dropped), L2-normalised. Same words → cosine 1; disjoint words → ~0. Tests of the
 * lifecycle use it so they are fast and do not depend on a model.
 */
const STOP = new Set('a an the and or of for to in on at with my me i please kg one'.split(' '));

function hash(word: string, dim: number): number {
  let h = 2166136261;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
  return (h >>> 0) % dim;
}

export function bagOfWordsEncoder(dim = 256): Encoder {
  return {
    name: 'test-bag-of-words',
    description: 'hashed bag of content words (unit tests only)',
    dim,
    async embed(texts) {
      return texts.map((t) => {
        const v = new Float32Array(dim);
        for (const w of t.toLowerCase().match(/[a-z]+/g) ?? []) if (!STOP.has(w)) v[hash(w, dim)]! += 1;
        const norm = Math.hypot(...v) || 1;
        return v.map((x) => x / norm);
      });
    },
  };
}
