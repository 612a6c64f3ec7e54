import { numbersIn, numbersInDoc as numbersInDocFile } from '../helpers/doc-numbers.ts';
import { describe, expect, it } from 'vitest';
import * as published from '../../src/reference/published.ts';

// The figures printed beside ours live in src/reference/published.ts; their source, as a
// reader can check it, is docs/reference/published-figures.md. Every number in the code must
// appear in that file, so a mistyped figure fails here.

const numbersInDoc = numbersInDocFile('docs/reference/published-figures.md');

describe('docs/reference/published-figures.md', () => {
  const figures = Object.entries(published)
    .filter(([name]) => name.startsWith('PUBLISHED_') && name !== 'PUBLISHED_SOURCE')
    .flatMap(([name, value]) => numbersIn(value, name))
    // 0 is a placeholder (the full mechanism's Δ, "phase 2 skipped" tokens), not a figure.
    .filter(([, n]) => n !== 0);

  it('holds every figure of src/reference/published.ts', () => {
    expect(figures.length).toBeGreaterThan(60);
    const missing = figures.filter(([, n]) => !numbersInDoc.has(n)).map(([p, n]) => `${p} = ${n}`);
    expect(missing).toEqual([]);
  });

  it('is the source the footnotes name', () => {
    expect(published.PUBLISHED_SOURCE).toContain('docs/reference/published-figures.md');
  });
});
