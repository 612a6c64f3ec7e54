import { writeManifest, writeTableResult } from '../../src/results/write.ts';
import { runFiles } from '../../src/results/run-files.ts';
import type { RunManifest } from '../../src/results/manifest.ts';
import type { Table } from '../../src/table/table.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { comparedProfiles } from '../../src/hosts/registry.ts';
import { hostProfilesTable } from '../../src/measure/host-table.ts';
import type { PipelineSummary } from '../../src/measure/summarize.ts';
import { PIPELINES } from '../../src/pipelines/registry.ts';

/** The host-profiles table as the bench builds it, from summaries with only the fields it reads. */
function hostTable(): Table {
  const s = (pipeline: string, label: string, m: number, c: number, r: number, a: number) =>
    ({
      pipeline,
      label,
      toolTokensByHost: { 'mcp-json': m, 'openai-chat': c, 'openai-responses': r, anthropic: a },
    }) as unknown as PipelineSummary;
  return hostProfilesTable(
    [
      s('b1-full-schema', 'B1 Full-Schema', 47712, 20410, 20101, 27640),
      s('b4-cli-lazy', 'B4 CLI Lazy', 4503, 4398, 4398, 4503),
      s('tool-attention', 'Tool Attention', 6120.5, 4010.2, 3950.8, 4980.1),
      s('adol-short', 'ADOL short tools/list', 30111, 17200, 16950, 21003),
    ],
    PIPELINES,
    comparedProfiles({ id: 'mcp-json', tokenizer: 'cl100k_base' }),
    'Fixture: host-profiles table (src/measure/host-table.ts).',
  );
}

/**
 * A small results directory with every table a chart reads, including the ones colleagues'
 * studies will write (scaling, threshold sweeps, table3-projected, AACP hops), in the column
 * layout documented in src/report/charts/*.ts.
 */
export const FIXTURE_TABLES: Table[] = [
  {
    id: 'table3-measured',
    title: 'Table 3 (measured part): tool tokens per turn',
    columns: [
      { key: 'method', header: 'method', kind: 'label' },
      { key: 'toolTokens', header: 'tool tokens/turn', kind: 'measured' },
      { key: 'pubTokens', header: 'published', kind: 'published' },
      { key: 'diffTokensPct', header: 'Δ %', kind: 'difference', digits: 1 },
      { key: 'rho', header: 'rho T30', kind: 'measured', digits: 2 },
    ],
    rows: [
      {
        pipeline: 'b1-full-schema',
        method: 'B1 Full-Schema',
        toolTokens: 47712,
        pubTokens: '47,312 ± 210',
        diffTokensPct: 0.845,
        rho: 0.108,
      },
      { method: 'B2 Static Pruning', toolTokens: 7500, pubTokens: '11,865 ± 145', diffTokensPct: -36.79, rho: 0.43 },
      { method: 'B4 CLI Lazy', toolTokens: 4163.18, pubTokens: '480 ± 30', diffTokensPct: 767.3, rho: 0.478 },
      { method: 'Tool Attention', toolTokens: 2512.4, pubTokens: '2,368 ± 85', diffTokensPct: 6.1, rho: 0.88 },
    ],
    notes: ['Fixture: measured part of Table 3.'],
  },
  {
    id: 'table3-projected',
    title: 'Table 3 (projected part): success, latency, cost',
    columns: [
      { key: 'method', header: 'method', kind: 'label' },
      { key: 'success', header: 'success %', kind: 'projected', digits: 1 },
      { key: 'pubSuccess', header: 'published', kind: 'published', digits: 1 },
      { key: 'contextWindow', header: 'context window', kind: 'parameter' },
    ],
    rows: [
      { method: 'B1 Full-Schema', success: 71.3, pubSuccess: 72.1, contextWindow: 200000 },
      { method: 'B2 Static Pruning', success: 58.2, pubSuccess: 57.6, contextWindow: 200000 },
      { method: 'B4 CLI Lazy', success: 86.9, pubSuccess: 88, contextWindow: 200000 },
      { method: 'Tool Attention', success: 93.5, pubSuccess: 94.2, contextWindow: 200000 },
    ],
    notes: ['Fixture: success is a projection from a parameterised model.'],
  },
  {
    id: 'scaling',
    title: 'Scaling: rho vs catalog size',
    columns: [
      { key: 'method', header: 'method', kind: 'label' },
      { key: 'n', header: 'N', kind: 'parameter' },
      { key: 'rho', header: 'rho T30', kind: 'projected', digits: 2 },
      { key: 'toolTokens', header: 'tool tokens/turn', kind: 'measured' },
    ],
    rows: [10, 50, 120, 500, 1000].flatMap((n) => [
      { method: 'B1 Full-Schema', n, rho: 6000 / (6000 + 400 * n + 2000), toolTokens: 400 * n },
      { method: 'Tool Attention', n, rho: 6000 / (6000 + 2400 + 2 * n + 2000), toolTokens: 2400 + 2 * n },
    ]),
  },
  ...(['threshold-calibration-use-lite', 'threshold-sweep-tfidf'] as const).map((id, e): Table => ({
    id,
    title: `Threshold sweep (${id.replace(/^threshold-\w+-/, '')})`,
    columns: [
      { key: 'theta', header: 'θ', kind: 'parameter', digits: 2 },
      { key: 'precision', header: 'precision', kind: 'measured', digits: 3 },
      { key: 'recall', header: 'recall', kind: 'measured', digits: 3 },
      { key: 'f1', header: 'F1', kind: 'measured', digits: 3 },
    ],
    rows: Array.from({ length: 11 }, (_, i) => {
      const theta = i / 10;
      const precision = Math.min(1, 0.1 + theta * (1.2 - 0.3 * e));
      const recall = Math.max(0, 1 - theta * theta * (1.6 + e));
      return { theta, precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
    }),
  })),
  {
    id: 'aacp-hops',
    title: 'AACP coordination tokens per hop',
    columns: [
      { key: 'workflow', header: 'workflow', kind: 'label' },
      { key: 'hop', header: 'hop', kind: 'label' },
      { key: 'tokenizer', header: 'tokenizer', kind: 'parameter' },
      { key: 'framing', header: 'framing', kind: 'parameter' },
      { key: 'englishTokens', header: 'English tokens', kind: 'measured' },
      { key: 'aacpTokens', header: 'AACP tokens', kind: 'measured' },
      { key: 'changePct', header: 'change %', kind: 'difference', digits: 1 },
    ],
    rows: ['cl100k_base', 'o200k_base'].flatMap((tokenizer) =>
      ['bare', 'openai-chat'].flatMap((framing) =>
        [
          ['fetch-employees', 48, 41],
          ['fetch-budgets', 52, 38],
          ['merge-calculate', 71, 44],
          ['generate-report', 66, 40],
        ].map(([hop, english, aacp]) => {
          const extra = framing === 'bare' ? 0 : 7;
          const englishTokens = (english as number) + extra;
          const aacpTokens = (aacp as number) + extra;
          return {
            workflow: 'payroll',
            hop: hop as string,
            tokenizer,
            framing,
            englishTokens,
            aacpTokens,
            changePct: (100 * (aacpTokens - englishTokens)) / englishTokens,
          };
        }),
      ),
    ),
  },
  {
    id: 'retrieval-real',
    title: 'Tool retrieval on the real-catalog query set',
    columns: [
      { key: 'retriever', header: 'retriever', kind: 'label' },
      ...[1, 3, 5, 10, 20].map((k) => ({ key: `r${k}`, header: `R@${k}`, kind: 'measured' as const, digits: 3 })),
    ],
    rows: [
      { retriever: 'bm25', r1: 0.19, r3: 0.386, r5: 0.452, r10: 0.571, r20: 0.697 },
      { retriever: 'learned (default)', r1: 0.215, r3: 0.404, r5: 0.489, r10: 0.602, r20: 0.719 },
    ],
    notes: ['Fixture: retrieval table (src/retrieval/tables.ts).'],
  },
  {
    id: 'retrieval-generalisation',
    title: 'Retrieval across suites',
    columns: [
      { key: 'retriever', header: 'retriever', kind: 'label' },
      { key: 'role', header: 'role', kind: 'label' },
      ...['synthetic:synthetic-120', 'real:real six servers'].map((s) => {
        const [id, name] = s.split(':');
        return { key: `${id}:r10`, header: `${name} R@10`, kind: 'measured' as const, digits: 3 };
      }),
    ],
    rows: [
      { retriever: 'bm25', role: 'method', 'synthetic:r10': 0.493, 'real:r10': 0.487 },
      { retriever: 'bm25:plain', role: 'untuned-library', 'synthetic:r10': 0.476, 'real:r10': 0.441 },
      { retriever: 'learned+hybrid', role: 'default', 'synthetic:r10': 0.676, 'real:r10': 0.58 },
      { retriever: 'learned+hybrid:no-cues', role: 'ablation: entity-cue feature', 'synthetic:r10': 0.609, 'real:r10': 0.535 },
    ],
    notes: ['Fixture: generalisation table (src/studies/retrieval/generalisation.ts).'],
  },
  hostTable(),
];

export const FIXTURE_RUN_INFO: RunManifest = {
  tool: 'tooltax',
  version: '0.0.0-fixture',
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:12.500Z',
  seconds: 12.5,
  catalog: {
    name: 'synthetic-120',
    source: 'catalogs/synthetic-120',
    tools: 120,
    servers: ['database', 'filesystem', 'github', 'jira', 'slack', 'web'],
  },
  tasks: { source: 'fixture', perSeed: [{ seed: 42, tasks: 500 }] },
  tokenizer: 'cl100k_base',
  encoder: { name: 'use-lite', description: 'fixture' },
  seeds: [42, 43, 44],
  quick: false,
  pipelines: [
    { id: 'b1-full-schema', label: 'B1 Full-Schema', code: 'B1', group: 'main', baseline: true, settings: { details: {} } },
    {
      id: 'tool-attention',
      label: 'Tool Attention',
      code: 'TA',
      group: 'main',
      baseline: false,
      settings: {
        retrieval: {
          encoder: 'use-lite',
          retriever: 'dense:use-lite (paper form)',
          index: 'exact-flat-ip',
          k: 10,
          theta: 0.28,
          toolText: 'summary',
          query: 'user message',
        },
        details: {},
      },
    },
  ],
  measurementParams: {},
  tableOrder: FIXTURE_TABLES.map((t) => t.id),
};

/** Writes the fixture to a fresh temporary results directory; `omit` leaves tables out. */
export function writeFixtureResults(omit: readonly string[] = []): string {
  const dir = makeTempDir('tooltax-report-results-');
  for (const t of FIXTURE_TABLES.filter((x) => !omit.includes(x.id))) writeTableResult(dir, t);
  writeManifest(dir, { ...FIXTURE_RUN_INFO, files: runFiles(dir) });
  return dir;
}
