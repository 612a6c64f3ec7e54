import { describe, expect, it } from 'vitest';
import { publishedOnlyFor } from '../../src/table/published-for.ts';
import type { Table } from '../../src/table/table.ts';

const table: Table = {
  id: 't',
  title: 't',
  columns: [
    { key: 'method', header: 'method', kind: 'label' },
    { key: 'tokens', header: 'tokens', kind: 'measured' },
    { key: 'pub', header: 'published', kind: 'published', publishedFor: 'testbed' },
    { key: 'diff', header: 'Δ %', kind: 'difference', publishedFor: 'testbed' },
    // A published figure about something else than the catalog (a protocol's own example) stays.
    { key: 'protocol', header: 'published, protocol', kind: 'published' },
  ],
  rows: [{ method: 'B1', tokens: 10, pub: 12, diff: -16.7, protocol: 3 }],
  notes: ['a note'],
};

describe('publishedOnlyFor', () => {
  it('keeps the published columns on the catalog they were published for', () => {
    expect(publishedOnlyFor(table, 'testbed')).toBe(table);
  });

  it('drops them, their cells and their differences on another catalog, and says why', () => {
    const mine = publishedOnlyFor(table, 'my-servers');
    expect(mine.columns.map((c) => c.key)).toEqual(['method', 'tokens', 'protocol']);
    expect(mine.rows).toEqual([{ method: 'B1', tokens: 10, protocol: 3 }]);
    expect(mine.notes).toEqual([
      'a note',
      "No published column: the source's figures were published for the testbed catalog, not my-servers.",
    ]);
    expect(table.columns).toHaveLength(5);
  });
});
