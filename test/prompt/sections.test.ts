import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { section, hasCleanSeams } from '../../src/prompt/sections.ts';
import { TokenCounter, TOKENIZERS } from '../../src/tokens/counter.ts';

describe('prompt sections', () => {
  it.each(TOKENIZERS)('%s: the tokens of the whole prompt equal the sum over sections', (tok) => {
    const counter = new TokenCounter(tok);
    const text = fc.string({
      minLength: 1,
      maxLength: 80,
      unit: fc.constantFrom('a', 'Z', ' ', '\n', '{', '}', '"', ':', '1', 'é', '\t', '.', '#', '→', '/', ','),
    });
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 6 }), (texts) => {
        const sections = texts.map((t, i) => section('history', `s${i}`, `x${t}`, false));
        expect(hasCleanSeams(sections)).toBe(true);
        const whole = counter.count(sections.map((s) => s.text).join(''));
        expect(sections.reduce((s, x) => s + counter.count(x.text), 0)).toBe(whole);
      }),
      { numRuns: 300, seed: 42 },
    );
  });

  it('detects sections whose seam is not clean', () => {
    expect(hasCleanSeams([{ role: 'user', label: 'u', text: ' starts with space\n', stable: false }])).toBe(false);
    expect(hasCleanSeams([{ role: 'user', label: 'u', text: 'no final newline', stable: false }])).toBe(false);
    // `,\n//` is one o200k token: a section starting with `/` does not split from the one before.
    expect(hasCleanSeams([{ role: 'user', label: 'u', text: '// comment\n', stable: false }])).toBe(false);
  });
});
