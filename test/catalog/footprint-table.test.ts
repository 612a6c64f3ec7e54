import { describe, expect, it } from 'vitest';
import { footprintTable } from '../../src/catalog/footprint-table.ts';
import { loadCatalog } from '../../src/catalog/load.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';

const tokens = tokenCounter('cl100k_base');

describe('catalog footprint table', () => {
  it('compares the total with the published testbed only for a catalog holding all its servers', () => {
    const full = footprintTable(loadCatalog('catalogs/synthetic-120'), tokens);
    expect(full.rows.at(-1)!.publishedMean).toBeDefined();
    const one = loadCatalog('catalogs/synthetic-120/filesystem.json');
    const t = footprintTable(one, tokens);
    const total = t.rows.at(-1)!;
    expect(total.server).toBe('total');
    expect(total.publishedTools).toBeUndefined();
    expect(total.diffPct).toBeUndefined();
    // The server's own row still sits beside its published mean.
    expect(t.rows[0]!.publishedMean).toBeDefined();
  });
});
