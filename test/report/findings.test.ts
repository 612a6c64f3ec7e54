import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computeFindings, findingsMarkdown, RECALL_FLOOR } from '../../src/report/findings.ts';
import type { RunManifest } from '../../src/results/manifest.ts';
import { REAL_SUITE, SYNTHETIC_SUITE } from '../../src/table/suites.ts';
import type { Table } from '../../src/table/table.ts';

const t = (id: string, rows: Record<string, number | string>[]): Table => ({ id, title: id, columns: [], rows });
const pipeline = (id: string, extra: object = {}) => ({
  id,
  label: id,
  code: id,
  group: 'main' as const,
  baseline: id === 'b1',
  settings: { details: {} },
  ...extra,
});
const manifest = {
  catalog: { name: 'synthetic-120' },
  pipelines: [pipeline('b1'), pipeline('b3'), pipeline('b4'), pipeline('b4o', { ablationOf: 'b4' })],
} as unknown as RunManifest;

describe('findings', () => {
  const tables = [
    t(SYNTHETIC_SUITE.measuredTable, [
      { pipeline: 'b1', method: 'B1', toolTokens: 40_000, recall: 1 },
      { pipeline: 'b3', method: 'B3', toolTokens: 4_000, recall: 0.85 },
      { pipeline: 'b4', method: 'B4', toolTokens: 5_000, recall: 0.9 },
      { pipeline: 'b4o', method: 'B4o', toolTokens: 100, recall: 1 },
    ]),
    t(SYNTHETIC_SUITE.projectedTable, [
      { pipeline: 'b1', method: 'B1', success: 60, successCi: '58.0–62.0' },
      { pipeline: 'b4', method: 'B4', success: 80, successCi: '78.0–82.0' },
      { pipeline: 'b4o', method: 'B4o', success: 95 },
    ]),
    t(SYNTHETIC_SUITE.hostSearchTable, [
      { pipeline: 'b1', method: 'B1', kind: "papers' method", toolTokens: 40_000, recall: 1, success: 60 },
      { pipeline: 'b4', method: 'B4', kind: "papers' method", toolTokens: 5_000, recall: 0.9, success: 80 },
      { pipeline: 'ats', method: 'ATS', kind: 'host tool search', toolTokens: 2_000, recall: 0.5, success: 55 },
      { pipeline: 'ots', method: 'OTS', kind: 'host tool search', toolTokens: 2_500, recall: 0.6, success: 70 },
    ]),
    t(REAL_SUITE.measuredTable, [
      { pipeline: 'b1', method: 'B1', toolTokens: 60_000, recall: RECALL_FLOOR - 0.01 },
      { pipeline: 'b3', method: 'B3', toolTokens: 3_000, recall: 0.6 },
    ]),
  ];

  it('per suite: B1, the leanest method keeping recall ≥ the floor, the best projected success; ablations left out', () => {
    const [synthetic, real] = computeFindings(tables, manifest);
    expect(synthetic).toMatchObject({
      baselineTokens: 40_000,
      leanest: { method: 'B3', tokens: 4_000, reductionPct: 90, recall: 0.85 },
      bestRecall: null,
      bestSuccess: { method: 'B4', success: 80, ci: '78.0–82.0' },
      // The best host search by projected success, ranked among every method of its table.
      hostSearch: { method: 'OTS', tokens: 2_500, recall: 0.6, success: 70, rank: 2, of: 4 },
    });
    // No method keeps the floor: say so, and name the highest recall instead.
    expect(real).toMatchObject({ leanest: null, bestRecall: { method: 'B3', recall: 0.6 }, bestSuccess: null, hostSearch: null });
    const md = findingsMarkdown([synthetic!, real!]);
    expect(md).toContain(
      '| synthetic-120 | 40,000 | B3: 4,000 (−90.0%), recall 0.850 | B4: 80.0% (78.0–82.0) | OTS: 2,500, recall 0.600, 70.0% (rank 2 of 4) |',
    );
    expect(md).toContain('| real six servers | 60,000 | none besides B1; highest recall: B3 0.600 at 3,000 | — | — |');
    // One plain sentence per suite leads the block, from the same numbers as its row.
    expect(md).toContain(
      [
        "- On synthetic-120, B3 keeps recall at 0.850 with 4,000 tool tokens per turn, 90.0% fewer than B1's 40,000.",
        "- On real six servers, every mitigation drops needed tools on some turns: none keeps recall at 0.8 or more, and the highest, B3's 0.600, comes with 3,000 tool tokens per turn against B1's 60,000.",
      ].join('\n'),
    );
    expect(md.indexOf('- On synthetic-120')).toBeLessThan(md.indexOf('| suite |'));
  });

  it("names the first suite after the run's catalog: a user's with --catalog, not synthetic-120", () => {
    const own = { ...manifest, catalog: { name: 'my-servers' } } as unknown as RunManifest;
    expect(computeFindings(tables, own).map((f) => f.suiteName)).toEqual(['my-servers', 'real six servers']);
  });

  it('is empty without a suite table', () => {
    expect(computeFindings([t('other', [])], manifest)).toEqual([]);
    expect(findingsMarkdown([])).toBe('');
  });
});

describe("the README's findings section", () => {
  it('is the block the last bench wrote (reports/findings.md)', () => {
    const readme = readFileSync('README.md', 'utf8');
    const block = /<!-- findings:begin[^>]*-->\n([\s\S]*?)<!-- findings:end -->/.exec(readme)?.[1];
    const generated = readFileSync('reports/findings.md', 'utf8').replace(/^## Findings\n\n/, '');
    // After a bench run that changed them: npx tsx scripts/sync-readme-findings.ts
    expect(block?.trim()).toBe(generated.trim());
  });
});
