import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as sources from '../../src/hosts/sources.ts';

// The host profiles' published figures live in src/hosts/sources.ts; a reader checks them
// against docs/reference/host-sources.md, which must hold every number of the code.

const doc = readFileSync('docs/reference/host-sources.md', 'utf8');
// Every number in the file, thousands separators and signs dropped (−3 → 3).
const numbersInDoc = new Set([...doc.replaceAll(/(\d),(\d{3})/g, '$1$2').matchAll(/\d+(?:\.\d+)?/g)].map((m) => Number(m[0])));

function numbersIn(value: unknown, path: string, out: [string, number][] = []): [string, number][] {
  if (typeof value === 'number') out.push([path, Math.abs(value)]);
  else if (Array.isArray(value)) value.forEach((v, i) => numbersIn(v, `${path}[${i}]`, out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) numbersIn(v, `${path}.${k}`, out);
  return out;
}

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
