import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** docs/layout.md's Source table: one row per folder of src/, so a reader finds every folder there. */
describe('docs/layout.md', () => {
  const doc = readFileSync('docs/layout.md', 'utf8');
  const source = doc.slice(doc.indexOf('## Source'), doc.indexOf('## Data, outputs and tooling'));
  const rows = [...source.matchAll(/^\| `src\/([\w-]+)` \|/gm)].map((m) => m[1]!);
  const folders = readdirSync('src', { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);

  it('has a row for every folder of src/, and none for a folder that is gone', () => {
    // Guards against passing vacuously: the table and the folder list were both read.
    expect(folders.length).toBeGreaterThan(10);
    expect([...rows].sort()).toEqual([...folders].sort());
  });
});
