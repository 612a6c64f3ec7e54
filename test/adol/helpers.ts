import type { Encoder } from '../../src/embed/types.ts';
import { l2Normalize } from '../../src/embed/vector.ts';

/** A deterministic stand-in encoder for fast tests: hashed bag of lower-cased words, L2-normalised. */
export function hashEncoder(dim = 128): Encoder {
  return {
    name: 'test-hash',
    description: 'hashed bag of words (tests only)',
    dim,
    async embed(texts: readonly string[]) {
      return texts.map((text) => {
        const v = new Float32Array(dim);
        for (const w of text
          .toLowerCase()
          .split(/[^a-z0-9]+/)
          .filter(Boolean)) {
          let h = 2166136261;
          for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619);
          v[(h >>> 0) % dim]! += 1;
        }
        return l2Normalize(v);
      });
    },
  };
}
