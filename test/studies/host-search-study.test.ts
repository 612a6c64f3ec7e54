import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { PIPELINES } from '../../src/pipelines/registry.ts';
import { hostSearchEmbeddings, hostSearchStudy } from '../../src/studies/host-search/study.ts';
import { syntheticStudyContext } from '../helpers/study-context.ts';

const pick = (ids: string[]) => PIPELINES.filter((e) => ids.includes(e.id));
const ctx = syntheticStudyContext(
  (all) => all.slice(0, 3),
  pick(['b1-full-schema', 'b4-cli-lazy', 'anthropic-tool-search-bm25', 'openai-tool-search']),
);
afterAll(() => rmSync(ctx.resultsDir, { recursive: true, force: true }));

describe('the host tool search table on the LiveMCPBench development half', () => {
  it('runs the host searches and the papers’ methods the run ran on its 527 tools', async () => {
    const [table] = await hostSearchStudy.run(ctx);
    expect(table!.id).toBe('host-search-livemcpbench');
    expect(table!.title).toContain('LiveMCPBench development half');
    expect(table!.rows.map((r) => r.pipeline)).toEqual([
      'b1-full-schema',
      'b4-cli-lazy',
      'anthropic-tool-search-bm25',
      'openai-tool-search',
    ]);
    const [b1, , ats] = table!.rows;
    expect(ats!.toolTokens as number).toBeLessThan(b1!.toolTokens as number);
    expect(ats!.searches as number).toBeGreaterThan(0);
    // Each host search carries its recall band: the raw request once below, the tools' own words above.
    for (const row of table!.rows.slice(2)) {
      expect(row.recallLower as number, String(row.pipeline)).toBeLessThanOrEqual(row.recall as number);
      expect(row.recall as number, String(row.pipeline)).toBeLessThanOrEqual(row.recallUpper as number);
      expect(row.recallUpper as number).toBeGreaterThan(row.recallLower as number);
      // And its projected success under each bound, by the row's own projection.
      for (const k of ['successLower', 'successUpper']) expect(row[k] as number, `${String(row.pipeline)} ${k}`).toBeGreaterThanOrEqual(0);
      expect(row.successUpper as number).toBeLessThanOrEqual(100);
    }
    expect(b1!.recallLower).toBeUndefined();
    expect(table!.notes![0]).toMatch(/527 tools on 70 real servers \(catalogs\/livemcpbench\), 47 labelled requests/);
    expect(hostSearchEmbeddings(ctx).catalogs?.[0]?.tools.length).toBe(527);
  });

  it('is not run without a host search, nor on a user’s catalog', async () => {
    expect(await hostSearchStudy.run({ ...ctx, pipelines: pick(['b1-full-schema']) })).toEqual([]);
    expect(await hostSearchStudy.run({ ...ctx, catalog: { ...ctx.catalog, name: 'mine' } })).toEqual([]);
  });
});
