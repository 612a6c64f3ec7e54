import { numbersIn, numbersInDoc as numbersInDocFile } from '../helpers/doc-numbers.ts';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as sources from '../../src/hosts/sources.ts';

// The host profiles' published figures live in src/hosts/sources.ts; a reader checks them
// against docs/reference/host-sources.md, which must hold every number of the code.

const doc = readFileSync('docs/reference/host-sources.md', 'utf8');
const numbersInDoc = numbersInDocFile('docs/reference/host-sources.md');

describe('docs/reference/host-sources.md', () => {
  const figures = Object.entries(sources).flatMap(([name, value]) => numbersIn(value, name));

  it('holds every figure of src/hosts/sources.ts', () => {
    expect(figures.length).toBeGreaterThan(60);
    expect(figures.filter(([, n]) => !numbersInDoc.has(n)).map(([p, n]) => `${p} = ${n}`)).toEqual([]);
  });

  it('names every source the code names', () => {
    const urls = Object.values(sources).flatMap((v) => (v && typeof v === 'object' && 'url' in v ? [String(v.url)] : []));
    expect(urls.length).toBeGreaterThanOrEqual(5);
    for (const url of urls) expect(doc).toContain(url);
  });

  it('prints the published harmony example as the code holds it', () => {
    expect(doc).toContain(sources.HARMONY_EXAMPLE_TEXT);
    expect(doc).toContain(sources.HARMONY_FUNCTIONS_NOTE);
  });
});
