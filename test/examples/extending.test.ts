import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBench, type BenchOptions } from '../../src/bench/run.ts';
import { customProfile, readCustomHostFile } from '../../src/hosts/custom.ts';
import { checkedPipelineRegistry } from '../../src/pipelines/check-registry.ts';
import { PIPELINES } from '../../src/pipelines/registry.ts';
import { buildChart } from '../../src/report/charts/write-charts.ts';
import { readManifest, readTables } from '../../src/results/read.ts';
import { evaluateRetriever } from '../../src/retrieval/evaluate.ts';
import { DEFAULT_QUERY_MODE } from '../../src/retrieval/query.ts';
import { checkedStudyRegistry } from '../../src/studies/check-registry.ts';
import { loadSuite } from '../../src/tasks/bundled-suites.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';
import { createNameWordsRetriever } from './name-words-retriever.ts';
import { serversChart, serversStudy } from './servers-study.ts';
import { FIXTURE_SUITE } from './suite.ts';

/**
 * docs/extending.md's worked examples: each file it quotes is quoted whole and as it is, and each
 * example runs here the way the harness runs its own kind (the suite's run is
 * test/table/suite-registry.test.ts; the baseline's test/pipelines/registry.test.ts).
 */
const DOC = 'docs/extending.md';
const tmp = mkdtempSync(join(tmpdir(), 'tooltax-extending-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const fixture = loadSuite(FIXTURE_SUITE, process.cwd())!;

/** Each `<!-- example: <file> -->` of the doc, with the code block that follows it. */
function quoted(): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of readFileSync(DOC, 'utf8').matchAll(/<!-- example: (\S+) -->\n+```\w+\n([\s\S]*?)```\n/g)) out.set(m[1]!, m[2]!);
  return out;
}

describe('docs/extending.md', () => {
  it('quotes every example file whole, as it is', () => {
    const files = [
      ...readdirSync('test/examples')
        .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
        .map((f) => `test/examples/${f}`),
      'docs/examples/gateway-host.json',
    ];
    expect(files.length).toBeGreaterThanOrEqual(4);
    const blocks = quoted();
    expect([...blocks.keys()].sort()).toEqual(files.sort());
    for (const f of files) expect(blocks.get(f), f).toBe(readFileSync(f, 'utf8'));
  });

  it('the retriever ranks by name words and is measured as the retrieval study measures every retriever', async () => {
    const retriever = createNameWordsRetriever();
    const fitted = await retriever.fit(fixture.catalog.tools);
    const [scores] = await fitted.score(['read the chat channel please']);
    const best = fitted.ids[scores!.indexOf(Math.max(...scores!))];
    expect(best).toBe('chat/read_channel');
    const evaluation = await evaluateRetriever(retriever, fixture.catalog.tools, fixture.tasks, DEFAULT_QUERY_MODE);
    expect(evaluation.retriever).toBe('name-words');
    expect(evaluation.overall.turns).toBe(5);
    expect(evaluation.overall.recallAt[5]).toBeGreaterThan(0);
  });

  it("the study's table is in the run's results and reports, and its chart is drawn from it", async () => {
    const out = join(tmp, 'results');
    const reports = join(tmp, 'reports');
    const log: string[] = [];
    const opts: BenchOptions = {
      root: process.cwd(),
      seed: 42,
      seeds: [42],
      catalog: [FIXTURE_SUITE.data!.catalog(process.cwd()) as string],
      tasks: FIXTURE_SUITE.data!.tasks(process.cwd()),
      tokenizer: 'cl100k_base',
      encoder: 'tfidf',
      retriever: 'bm25',
      pipelines: ['b1-full-schema'],
      registry: {
        pipelines: checkedPipelineRegistry(PIPELINES.filter((p) => p.id === 'b1-full-schema')),
        studies: checkedStudyRegistry([serversStudy]),
      },
      out,
      reports,
      quick: false,
      // The entries are exported where they are defined: the run has its worker lane, as the bench's own.
      lanes: 2,
      log: (line) => log.push(line),
    };
    await runBench(opts);
    expect(log.filter((l) => l.startsWith('one lane'))).toEqual([]);
    const tables = readTables(out);
    const servers = tables.find((t) => t.id === 'servers')!;
    expect(servers.rows.map((r) => [r.server, r.tools])).toEqual([
      ['chat', 2],
      ['code', 4],
      ['notes', 3],
    ]);
    expect(readFileSync(join(reports, 'tables.md'), 'utf8')).toMatch(/Tools per server/);
    const chart = await buildChart(serversChart, tables, readManifest(out));
    expect(chart.status).toBe('rendered');
    expect(chart.svg).toMatch(/^<svg/);
    // A second run into the folder restores both units from their records (nothing they depend on changed).
    log.length = 0;
    await runBench(opts);
    expect(log).toContain('reused 2 of 2 units: pipeline b1-full-schema, study servers');
    expect(readTables(out).find((t) => t.id === 'servers')).toEqual(servers);
  });

  it('the host profile file counts each tool as the fields it names, renamed, plus its fixed tokens', () => {
    const profile = customProfile(readCustomHostFile('docs/examples/gateway-host.json'), 'cl100k_base');
    const tokens = tokenCounter('cl100k_base');
    const tool = fixture.catalog.tools[0]!.definition;
    const sent = { name: tool.name, description: tool.description, parameters: tool.inputSchema };
    expect(profile.toolTokens(tool, tokens)).toBe(tokens.count(JSON.stringify(sent)) + 4);
    expect(profile.requestTokens(tokens)).toBe(120);
  });
});
