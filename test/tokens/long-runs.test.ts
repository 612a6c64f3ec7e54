import fc from 'fast-check';
import { getEncoding } from 'js-tiktoken';
import { describe, expect, it } from 'vitest';
import { hasLongRun, TokenCounter } from '../../src/tokens/counter.ts';

const direct = getEncoding('cl100k_base');
const piece = fc.constantFrom('tool', ' the', '"name":', '{', '}', ' ', '\n', 'ü', '😀', '1234', '---', '…', 'JSONSchema', '  ');

describe('token counts of long runs', () => {
  it('finds a run of 100 code points of one class exactly where the regular expression does (property)', () => {
    // Runs near the threshold, of every class, broken by digits, other classes and astral or lone surrogate characters.
    const run = fc
      .tuple(fc.constantFrom('a', 'é', 'e\u0301', '中', '😀', '-', '…', ' ', '\n', '7', '\ud800', '𝒳'), fc.integer({ min: 1, max: 120 }))
      .map(([c, n]) => c.repeat(n));
    fc.assert(
      fc.property(fc.array(run, { maxLength: 6 }), (parts) => {
        const text = parts.join('');
        expect(hasLongRun(text)).toBe(/[\p{L}\p{M}]{100}|[^\s\p{L}\p{M}\p{N}]{100}|\s{100}/u.test(text));
      }),
      { seed: 42, numRuns: 2000 },
    );
  });

  it('equal the direct encoding when no run of one character class reaches 100 characters (property)', () => {
    const counter = new TokenCounter();
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 400 }), (parts) => {
        const text = parts.join('');
        fc.pre(!/[\p{L}\p{M}]{100,}|[^\s\p{L}\p{M}\p{N}]{100,}|\s{100,}/u.test(text));
        expect(counter.count(text)).toBe(direct.encode(text, [], []).length);
      }),
      { seed: 42, numRuns: 200 },
    );
  });

  it('count a long run in pieces: close to the direct count, and fast on 1 MB', () => {
    const counter = new TokenCounter();
    const run = 'abcdefghij'.repeat(60); // 600 letters: direct encoding is still affordable
    const pieces = Math.ceil(run.length / 64);
    // Measured: 135 against 124 (10 pieces); a cut can cost about one token on each side.
    expect(Math.abs(counter.count(`x ${run} y`) - direct.encode(`x ${run} y`, [], []).length)).toBeLessThanOrEqual(2 * pieces);
    const huge = 'qwertyuiopasdfghjklzxcvbnm'.repeat(40_000); // ~1 MB: minutes if encoded as one piece
    expect(counter.count(huge)).toBeGreaterThan(huge.length / 128);
  });
});
