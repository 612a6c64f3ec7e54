import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchOutputDirs, manifestPartial } from '../../src/results/partial-run.ts';
import { computeFindings, findingsMarkdown, partialRunNote } from '../../src/report/findings.ts';
import type { RunManifest } from '../../src/results/manifest.ts';
import { wholeCatalogNotes } from '../../src/retrieval/tables.ts';
import { SYNTHETIC_SUITE } from '../../src/table/suites.ts';

/** A partial run keeps its hands off the committed reports, and its reports say it is partial. */
const root = '/repo';
const scratch = (...p: string[]) => join(root, 'results', 'partial', ...p);

describe('where a bench writes', () => {
  it('a whole run: the default folders', () => {
    expect(benchOutputDirs({ quick: false }, root)).toEqual({ out: undefined, reports: undefined });
  });
  it.each([
    ['--quick', { quick: true }, scratch()],
    ['--pipelines b1-full-schema', { quick: false, pipelines: ['b1-full-schema'] }, scratch()],
    ['--studies projection', { quick: false, studies: ['projection'] }, scratch()],
    ['--catalog', { quick: false, catalog: ['dumps/github.json', 'dumps/slack.json'] }, scratch('github+slack')],
  ])('a partial run (%s): a scratch folder under results/, which git ignores, and says so', (flag, o, dir) => {
    const r = benchOutputDirs(o, root);
    expect(r).toMatchObject({ out: join(dir, 'results'), reports: join(dir, 'reports') });
    expect(r.note).toMatch(
      new RegExp(
        `^a partial run \\(${flag}\\) writes to .* and .*, not the default folders \\(give --out and --reports, or --force for the defaults\\)$`,
      ),
    );
  });
  it('keeps the folders the user gave: both (as CI does), one, or the defaults with --force', () => {
    expect(benchOutputDirs({ quick: true, out: '/ci/results', reports: '/ci/reports' }, root)).toEqual({
      out: '/ci/results',
      reports: '/ci/reports',
    });
    expect(benchOutputDirs({ quick: true, out: '/ci/results' }, root)).toMatchObject({ out: '/ci/results', reports: scratch('reports') });
    expect(benchOutputDirs({ quick: true, force: true }, root)).toEqual({ out: undefined, reports: undefined });
  });
});

describe('the reports of a partial run say what ran', () => {
  const manifest = {
    catalog: { name: 'synthetic-120', tools: 120, servers: [] },
    tasks: { source: 'generated', perSeed: [{ seed: 42, tasks: 76 }] },
    quick: true,
    partial: manifestPartial({ quick: true, pipelines: ['b1-full-schema', 'mine'] }, ['projection']),
    pipelines: [
      { id: 'b1-full-schema', label: 'B1 Full-Schema', code: 'B1', group: 'main', baseline: true, settings: { details: {} } },
      { id: 'mine', label: 'Mine', code: 'MY', group: 'main', baseline: false, settings: { details: {} } },
    ],
  } as unknown as RunManifest;
  const tables = [
    {
      id: SYNTHETIC_SUITE.measuredTable,
      title: '',
      columns: [],
      rows: [
        { pipeline: 'b1-full-schema', method: 'B1 Full-Schema', toolTokens: 40_000, recall: 1 },
        { pipeline: 'mine', method: 'Mine', toolTokens: 900, recall: 0.95 },
      ],
    },
  ];
  it('names the options, pipelines, suites, sizes and studies, in the findings block', () => {
    const findings = computeFindings(tables, manifest);
    const note = partialRunNote(manifest, findings)!;
    expect(note).toBe(
      'Partial run (--quick, --pipelines b1-full-schema,mine), not comparable with a whole run: pipelines B1, MY; suites synthetic-120; catalog synthetic-120 (120 tools); tasks 76 of seed 42 (--quick subset); every study.',
    );
    expect(findingsMarkdown(findings, note)).toContain(`## Findings\n\n**${note}**\n\n- On synthetic-120, Mine keeps recall at 0.950`);
  });
  it('names the studies when --studies chose them', () => {
    const some = { ...manifest, partial: manifestPartial({ quick: false, studies: ['projection'] }, ['projection']) };
    expect(partialRunNote(some, [])).toMatch(/^Partial run \(--studies projection\), .*; suites none; .*; studies projection\.$/);
  });
  it('a whole run says nothing of the kind', () => {
    expect(manifestPartial({ quick: false }, ['projection'])).toBeUndefined();
    expect(partialRunNote({ ...manifest, partial: undefined }, [])).toBeUndefined();
  });
});

describe('retrieval tables on a catalog no larger than k', () => {
  it('say that R@k covers the whole catalog', () => {
    expect(wholeCatalogNotes(10)).toEqual([
      "k ≥ the catalog's 10 tools for R@10, R@20, served@10, all needed in top 10: the top k holds the whole catalog, so these say nothing about the ranking (1.000 whenever every tool is ranked).",
    ]);
    expect(wholeCatalogNotes(15)[0]).toMatch(/^k ≥ the catalog's 15 tools for R@20: /);
    expect(wholeCatalogNotes(120)).toEqual([]);
  });
});
