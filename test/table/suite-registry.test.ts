import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBench, type BenchOptions } from '../../src/bench/run.ts';
import type { BenchRegistry } from '../../src/bench/units.ts';
import { PIPELINES } from '../../src/pipelines/registry.ts';
import { chartsFor } from '../../src/report/charts/registry.ts';
import { computeFindings } from '../../src/report/findings.ts';
import { trainingDescription, trainingGroups } from '../../src/retrieval/learned/training-set.ts';
import { hostSearchEmbeddings, hostSearchStudy } from '../../src/studies/host-search/study.ts';
import { retrievalEmbeddings } from '../../src/studies/retrieval/study.ts';
import { withRecallGapNotes } from '../../src/table/suite-gap.ts';
import { defineSuite, REAL_SUITE, SUITES, SYNTHETIC_SUITE, type Suite } from '../../src/table/suites.ts';
import type { Table } from '../../src/table/table.ts';
import { FIXTURE_REGISTRY, FIXTURE_SUITE } from '../examples/suite.ts';
import { SELF_RUNNING_REGISTRY } from '../bench/fixtures/self-running-registry.ts';
import { unexportedEntry } from '../bench/fixtures/unexported-entry.ts';
import { smallTaskFile } from '../helpers/result-files.ts';
import { FIXTURE_TABLES } from '../report/fixture.ts';
import { smallBenchOptions } from '../helpers/small-runs.ts';
import { syntheticStudyContext } from '../helpers/study-context.ts';

const tmp = mkdtempSync(join(tmpdir(), 'tooltax-suite-registry-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Two pipelines and the real-suite study (whose tables the fixture suite gets) on two lanes. */
function fixtureRun(out: string, registry: BenchRegistry, log: string[] = []): BenchOptions {
  return smallBenchOptions(smallTaskFile(join(tmp, 'tasks.jsonl'), 1), {
    pipelines: ['b1-full-schema', 'b4-cli-lazy'],
    studies: ['real-suite'],
    registry,
    out,
    // The default reports folder is the repository's reports/.
    reports: join(out, '..', `${basename(out)}-reports`),
    lanes: 2,
    log: (line) => log.push(line),
  });
}

const readTable = (out: string, id: string) => JSON.parse(readFileSync(join(out, 'tables', `${id}.json`), 'utf8')) as Table;

/** The lanes the run's units ran on (timings.json). */
function lanesUsed(out: string): number[] {
  const timings = JSON.parse(readFileSync(join(out, 'timings.json'), 'utf8')) as { steps: { unit?: { lane: number } }[] };
  return [...new Set(timings.steps.flatMap((s) => (s.unit ? [s.unit.lane] : [])))].sort();
}

describe('suite registry', () => {
  it('holds each built-in suite once, by one id, with table ids made from it', () => {
    expect(SUITES.map((s) => s.id)).toEqual(['synthetic-120', 'real', 'livemcpbench']);
    expect(REAL_SUITE.measuredTable).toBe('table3-measured-real');
    expect(SYNTHETIC_SUITE.measuredTable).toBe('table3-measured');
    expect(SUITES.filter((s) => s.mainTables).map((s) => s.id)).toEqual(['synthetic-120', 'real']);
  });

  it('a fourth suite added to the registry alone gets its tables in the run, on worker lanes', async () => {
    const out = join(tmp, 'results');
    const log: string[] = [];
    await runBench(fixtureRun(out, FIXTURE_REGISTRY, log));
    // Every entry is exported by the module that defines it: the worker lane imported them and ran units too.
    expect(log.filter((l) => l.startsWith('one lane'))).toEqual([]);
    expect(lanesUsed(out)).toEqual([0, 1]);
    const table = (id: string) => readTable(out, id);
    const measured = table('table3-measured-fixture');
    expect(measured.title).toMatch(/— fixture servers$/);
    expect(measured.rows.map((r) => r.pipeline)).toEqual(['b1-full-schema', 'b4-cli-lazy']);
    // B1 lists all 9 fixture tools on every turn: recall 1.
    expect(measured.rows[0]!.recall).toBe(1);
    expect(measured.notes!.join(' ')).toMatch(
      /catalog 9 tools on 3 fixture servers \(test\/fixtures\/small-catalog\), 4 hand-written tasks/,
    );
    for (const id of ['table3-projected-fixture', 'table4-projected-fixture', 'code-mode-fixture'])
      expect(table(id).rows.length, id).toBeGreaterThan(0);
    // Only the registry's suites ran: the real suite was left out of this registry.
    expect(existsSync(join(out, 'tables', 'table3-measured-real.json'))).toBe(false);
    const order = (JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { tableOrder: string[] }).tableOrder;
    expect(order).toContain('table3-measured-fixture');

    // The same registry with a copy of the suite (no module exports it) runs in this thread alone, says so, and gives the same tables.
    const serialOut = join(tmp, 'results-serial');
    const serialLog: string[] = [];
    await runBench(fixtureRun(serialOut, { ...FIXTURE_REGISTRY, suites: [SYNTHETIC_SUITE, { ...FIXTURE_SUITE }] }, serialLog));
    expect(serialLog.filter((l) => l.startsWith('one lane, not 2: '))).toEqual([
      'one lane, not 2: suite fixture is not a value defineSuite returned (a plain object or a copy), so the run stays in this thread (a worker lane imports each entry from its module: docs/extending.md#a-registry-of-your-own)',
    ]);
    expect(lanesUsed(serialOut)).toEqual([0]);
    for (const id of order) expect(readTable(serialOut, id), id).toEqual(readTable(out, id));

    // A second run into the first folder restores every unit, those the worker lane ran too, into the same tables.
    const first = order.map((id) => readTable(out, id));
    const again: string[] = [];
    await runBench(fixtureRun(out, FIXTURE_REGISTRY, again));
    expect(again.filter((l) => /^(reused|running) \d+ of /.test(l))).toEqual([
      expect.stringMatching(/^reused 3 of 3 units: /),
      'running 0 of 3 units',
    ]);
    expect(order.map((id) => readTable(out, id))).toEqual(first);
  });

  it("a worker lane refuses an entry its module does not export, a module that runs the bench, and a module that is not a file's URL", async () => {
    const unexported = {
      ...FIXTURE_REGISTRY,
      pipelines: FIXTURE_REGISTRY.pipelines.map((p) => (p.id === 'b1-full-schema' ? unexportedEntry() : p)),
    };
    await expect(runBench(fixtureRun(join(tmp, 'unexported'), unexported))).rejects.toThrow(
      /bench worker: Error: pipeline b1-full-schema: not exported by file:.*unexported-entry\.ts; export the value definePipeline returns/,
    );
    await expect(runBench(fixtureRun(join(tmp, 'self-running'), SELF_RUNNING_REGISTRY))).rejects.toThrow(
      "runBench was called in a bench lane's thread: a module that defines an entry of the run runs the bench when it is imported",
    );
    const relative = { ...FIXTURE_REGISTRY, suites: [SYNTHETIC_SUITE, defineSuite('test/examples/suite.ts', FIXTURE_SUITE)] };
    await expect(runBench(fixtureRun(join(tmp, 'relative'), relative))).rejects.toThrow(
      'suite fixture: module "test/examples/suite.ts": expected the file: URL of the module that defines it (its import.meta.url)',
    );
  });
});

/** Tables of the shape the charts and notes read, for a suite's ids. */
const measuredTable = (id: string, rows: Table['rows']): Table => ({
  id,
  title: id,
  columns: [
    { key: 'method', header: 'method', kind: 'label' },
    { key: 'toolTokens', header: 'tool tokens', kind: 'measured', digits: 0 },
    { key: 'recall', header: 'recall', kind: 'measured', digits: 3 },
  ],
  rows,
  notes: [],
});
const rows = (recall: number) => [
  { pipeline: 'b1-full-schema', method: 'B1', toolTokens: 900, recall: 1 },
  { pipeline: 'b4-cli-lazy', method: 'B4', toolTokens: 100, recall },
];

describe('a fourth suite in the registry alone reaches every place that names suites', () => {
  // The fixture suite without main tables: the host tool search study's kind of suite (as LiveMCPBench).
  const searchOnly = defineSuite(import.meta.url, { ...FIXTURE_SUITE, id: 'fixture-search', mainTables: false });
  const suites: readonly Suite[] = [SYNTHETIC_SUITE, REAL_SUITE, FIXTURE_SUITE];
  const charts = chartsFor(suites);
  const chart = (id: string) => charts.find((c) => c.id === id)!;

  it('the tool tokens chart draws it in its registry colour', () => {
    const def = chart('tool-tokens-per-turn');
    expect(def.sources[0]!.split('|')).toEqual(['table3-measured', 'table3-measured-real', 'table3-measured-fixture']);
    const tables = [measuredTable('table3-measured', rows(0.9)), measuredTable('table3-measured-fixture', rows(0.8))];
    const spec = JSON.stringify(def.build([tables], undefined));
    expect(spec).toContain('fixture servers (measured)');
    expect(spec).toContain(FIXTURE_SUITE.color);
    // Colours come from the registry, not from a palette of the charts.
    expect(spec).toContain(SYNTHETIC_SUITE.color);
    expect(spec).not.toContain(REAL_SUITE.color);
  });

  it('the retrieval charts take its tables and colour', () => {
    expect(chart('retrieval-recall-at-k').sources[0]!.split('|')).toContain('retrieval-fixture');
    // The report fixture's generalisation table, its real suite's columns as the fixture suite's.
    const real = FIXTURE_TABLES.find((t) => t.id === 'retrieval-generalisation')!;
    const generalisation = JSON.parse(JSON.stringify(real).replaceAll('"real:', '"fixture:')) as Table;
    const spec = JSON.stringify(chart('retrieval-generalisation').build([[generalisation]], undefined));
    expect(spec).toContain(`"range":["${SYNTHETIC_SUITE.color}","${FIXTURE_SUITE.color}"]`);
  });

  it('the findings and the recall gap notes name it', () => {
    const tables = [measuredTable('table3-measured', rows(0.9)), measuredTable('table3-measured-fixture', rows(0.5))];
    const findings = computeFindings(tables, undefined, suites);
    expect(findings.map((f) => f.suite)).toEqual(['synthetic-120', 'fixture']);
    const noted = withRecallGapNotes(tables, suites);
    expect(noted[1]!.notes!.at(-1)).toContain('from the synthetic suite to the fixture one (synthetic → fixture): B4 0.900 → 0.500');
    // The built-in registry has no fixture suite: the same tables get no note.
    expect(withRecallGapNotes(tables)).toEqual(tables);
  });

  it('the retrieval study measures it, and the learned reranker trains on it', () => {
    const ctx = syntheticStudyContext((all) => all.slice(0, 1), [], { suites: [SYNTHETIC_SUITE, FIXTURE_SUITE] });
    rmSync(ctx.resultsDir, { recursive: true, force: true });
    expect(retrievalEmbeddings(ctx).catalogs!.map((c) => c.tools.length)).toEqual([9]);
    const groups = trainingGroups('message', process.cwd(), [SYNTHETIC_SUITE, FIXTURE_SUITE]);
    expect(groups.map((g) => g.suite)).toEqual(['synthetic', 'fixture']);
    expect(groups[1]!.turns.length).toBeGreaterThan(0);
    expect(trainingDescription([SYNTHETIC_SUITE, FIXTURE_SUITE])).toContain(FIXTURE_SUITE.data!.trainingText);
  });

  it('the host tool search study runs on a fixed suite without main tables', async () => {
    const pick = (ids: string[]) => PIPELINES.filter((e) => ids.includes(e.id));
    const ctx = syntheticStudyContext((all) => all.slice(0, 1), pick(['b1-full-schema', 'anthropic-tool-search-bm25']), {
      suites: [SYNTHETIC_SUITE, searchOnly],
    });
    try {
      expect(hostSearchEmbeddings(ctx).catalogs!.map((c) => c.tools.length)).toEqual([9]);
      const [table] = await hostSearchStudy.run(ctx);
      expect(table!.id).toBe('host-search-fixture-search');
      expect(table!.rows.map((r) => r.pipeline)).toEqual(['b1-full-schema', 'anthropic-tool-search-bm25']);
      expect(table!.notes![0]).toMatch(/^Suite fixture servers: 9 tools on 3 fixture servers/);
    } finally {
      rmSync(ctx.resultsDir, { recursive: true, force: true });
    }
  });
});
