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
      codeMode: null,
    });
    // No method keeps the floor: say so, and name the highest recall instead.
    expect(real).toMatchObject({
      leanest: null,
      bestRecall: { method: 'B3', recall: 0.6 },
      bestSuccess: null,
      hostSearch: null,
      codeMode: null,
    });
    const md = findingsMarkdown([synthetic!, real!]);
    expect(md).toContain(
      '| synthetic-120 | 40,000 | B3: 4,000 (−90.0%), recall 0.850 | B4: 80.0% (78.0–82.0) | OTS: 2,500, recall 0.600, 70.0% (rank 2 of 4) | — |',
    );
    expect(md).toContain('| real six servers | 60,000 | none besides B1; highest recall: B3 0.600 at 3,000 | — | — | — |');
    // One plain sentence per suite leads the block, from the same numbers as its row.
    expect(md).toContain(
      [
        "- On synthetic-120, B3 keeps recall at 0.850 with 4,000 tool tokens per turn, 90.0% fewer than B1's 40,000.",
        "- On real six servers, every mitigation drops needed tools on some turns: none keeps recall at 0.8 or more, and the highest recall, 0.600 (B3), comes with 3,000 tool tokens per turn against B1's 60,000.",
      ].join('\n'),
    );
    expect(md.indexOf('- On synthetic-120')).toBeLessThan(md.indexOf('| suite |'));
  });

  it("names the first suite after the run's catalog: a user's with --catalog, not synthetic-120", () => {
    const own = { ...manifest, catalog: { name: 'my-servers' } } as unknown as RunManifest;
    expect(computeFindings(tables, own).map((f) => f.suiteName)).toEqual(['my-servers', 'real six servers']);
  });

  it('a method sending as many tool tokens as B1 or more is no reduction, however high its recall', () => {
    const [synthetic] = computeFindings(
      [
        t(SYNTHETIC_SUITE.measuredTable, [
          { pipeline: 'b1', method: 'B1', toolTokens: 40_000, recall: 1 },
          { pipeline: 'b3', method: 'B1 + code tool', toolTokens: 40_100, recall: 1 },
          { pipeline: 'b4', method: 'B4', toolTokens: 5_000, recall: 0.7 },
        ]),
      ],
      manifest,
    );
    expect(synthetic).toMatchObject({ leanest: null, bestRecall: { method: 'B4', recall: 0.7 } });
  });

  it('code execution: the leanest code method keeping the recall floor by definitions + results + code, and the costliest beside B1', () => {
    const codeTable = (rows: [string, string, number, number | undefined, number][]) =>
      t(
        SYNTHETIC_SUITE.codeModeTable,
        rows.map(([method, kind, totalTokens, vsB1, recall]) => ({
          method,
          kind,
          totalTokens,
          ...(vsB1 === undefined ? {} : { vsB1 }),
          recall,
        })),
      );
    const measured = tables[0]!;
    const rows: [string, string, number, number | undefined, number][] = [
      ['B1', "papers' method", 40_000, undefined, 1],
      ['ADOL', "papers' method", 1_000, -97.5, 0.95], // not a code method: never named here
      ['Code Mode', 'code execution', 48_000, 20, 1],
      ['Files', 'code execution', 3_000, -92.5, 0.9],
      ['Files (search)', 'code execution', 2_000, -95, 0.6], // leaner, but below the floor
      ['Examples', 'tool use examples', 46_000, 15, 1],
    ];
    const [withCode] = computeFindings([measured, codeTable(rows)], manifest);
    expect(withCode!.codeMode).toEqual({
      best: { method: 'Files', total: 3_000, vsB1: -92.5, recall: 0.9, kept: true },
      costliest: { method: 'Code Mode', vsB1: 20 },
    });
    expect(findingsMarkdown([withCode!])).toContain('| Files: 3,000 (−92.5%), recall 0.900; costliest: Code Mode +20.0% |');
    // When no code method keeps the floor: the highest recall, said so; no costliest when none sends more than B1.
    const [low] = computeFindings([measured, codeTable(rows.filter((r) => r[0] !== 'Files' && r[0] !== 'Code Mode'))], manifest);
    expect(low!.codeMode).toEqual({
      best: { method: 'Files (search)', total: 2_000, vsB1: -95, recall: 0.6, kept: false },
      costliest: null,
    });
    expect(findingsMarkdown([low!])).toContain('| none keeps recall ≥ 0.8; highest: Files (search): 2,000 (−95.0%), recall 0.600 |');
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
