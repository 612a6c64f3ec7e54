import { describe, expect, it } from 'vitest';
import { footprintTable } from '../../src/catalog/footprint-table.ts';
import { loadCatalog } from '../../src/catalog/load.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';

const tokens = tokenCounter('cl100k_base');

describe('catalog footprint table', () => {
  it('prints the published testbed figures beside the testbed catalog only', () => {
    const full = footprintTable(loadCatalog('catalogs/synthetic-120'), tokens);
    expect(full.columns.filter((c) => c.publishedFor).map((c) => c.key)).toEqual(['publishedTools', 'publishedMean', 'diffPct']);
    expect(full.rows.at(-1)!.publishedMean).toBe(394);
    expect(full.rows.find((r) => r.server === 'Filesystem')!.publishedMean).toBe(180);
    // One of its servers alone is not the testbed, though the paper names a server of that name.
    const one = footprintTable(loadCatalog('catalogs/synthetic-120/filesystem.json'), tokens);
    expect(one.columns.map((c) => c.key)).toEqual(['server', 'tools', 'mean', 'min', 'max', 'total']);
    expect(one.rows.every((r) => !('publishedMean' in r) && !('diffPct' in r))).toBe(true);
    // ...and says nothing of the testbed's published figures beside it.
    expect(one.notes).toEqual([]);
  });
});
