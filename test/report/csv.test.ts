import { parse } from 'csv-parse/sync';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_TABLES } from './fixture.ts';
import { renderFixture, type RenderedFixture } from './render-fixture.ts';

let r: RenderedFixture;
beforeAll(async () => {
  r = await renderFixture();
});

const readCsv = (id: string) => parse(readFileSync(join(r.reportsDir, 'csv', `${id}.csv`), 'utf8')) as string[][];

describe('reports/csv/<id>.csv', () => {
  it('writes one CSV per table', () => {
    for (const t of FIXTURE_TABLES) expect(r.set.files).toContain(`csv/${t.id}.csv`);
  });

  it('marks projected headers † and keeps raw numbers', () => {
    const rows = readCsv('table3-projected');
    expect(rows[0]).toEqual(['method', 'success % †', 'published', 'context window']);
    expect(rows[1]).toEqual(['B1 Full-Schema', '71.3', '72.1', '200000']);
    expect(rows).toHaveLength(5);
  });

  it('keeps full precision and published text as it is', () => {
    const rows = readCsv('table3-measured');
    expect(rows[3]).toEqual(['B4 CLI Lazy', '4163.18', '480 ± 30', '767.3', '0.478']);
  });
});
