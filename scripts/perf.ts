/**
 * `npm run perf`: tinybench benchmarks of the bench's hot paths, written to reports/perf.md
 * (scripts/perf-report.ts; docs/performance.md links it) and compared with the previous file
 * when one exists (a regression shows as a ratio > 1).
 *
 *   token counting of the 120-tool catalog (BPE encode, and through the memo)
 *   routing one query at N = 120 / 1,000 / 10,000 (embed the query + top-10 search), on the
 *   exact flat index and on an approximate HNSW graph (with its recall@10 against the exact one)
 *   projecting one task (the success/latency/cost model on its measured turns)
 *   one bench turn per main pipeline (route, build the prompt, count it)
 *
 * Routing and the pipeline turns use TF-IDF capped to 512 terms, the encoder-free retriever of
 * the scaling study's large-N points: no model load, and the cost scales with N the same way
 * a 512-d dense encoder's search does. Timings are wall-clock on a possibly shared machine:
 * compare ratios of runs made under the same load, never assert on them.
 *
 * Then two further sections: use-lite's texts per CPU-second on each encoder kernel this CPU
 * runs (scripts/perf-kernels.ts; other CPUs' tables are kept from the previous file), and what
 * each mechanism of docs/performance.md buys in the bench (scripts/perf-mechanisms.ts).
 *
 * With --against <git-ref>, it instead runs the bench of this tree and of the ref side by side
 * and prints their ratios (scripts/perf-against.ts): how the budgets of docs/performance.md are
 * checked.
 *
 * Options: --out <file> (default reports/perf.md), --time <ms per benchmark> (default 300),
 * --rounds <n> rounds of the mechanism runs (default 1; 0 leaves that section out),
 * --bench quick|full: the bench the mechanisms are timed on (default quick; full is the one the
 * budgets are for, ~12 runs of it).
 */
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { Bench } from 'tinybench';
import { loadCatalog } from '../src/catalog/load.ts';
import { SERVER_SPECS } from '../src/catalog/servers/index.ts';
import { serializeToolDefinition, type Catalog } from '../src/catalog/types.ts';
import { createTfidfEncoder } from '../src/embed/tfidf.ts';
import { HNSW_PARAMS, HnswIpIndex } from '../src/index/hnsw-ip.ts';
import { createVectorIndex } from '../src/index/registry.ts';
import { runPipeline } from '../src/measure/run-pipeline.ts';
import { selectByTags } from '../src/pipelines/adol/retrieval.ts';
import { PIPELINES } from '../src/pipelines/registry.ts';
import { tfidfCorpus } from '../src/retrieval/encoder.ts';
import { queryText, toolSummaryText } from '../src/retrieval/texts.ts';
import { PROJECTION_PARAMS } from '../src/sim/projection/params.ts';
import { projectPipeline } from '../src/sim/projection/project.ts';
import { scaledCatalog } from '../src/studies/scaling/scaled-catalog.ts';
import { loadTasks } from '../src/tasks/load.ts';
import type { Task } from '../src/tasks/types.ts';
import { hasLongRun, tokenCounter } from '../src/tokens/counter.ts';
import { writeFileAtomic } from '../src/util/files.ts';
import { KERNELS_HEADING, kernelTables } from './perf-kernels.ts';
import { mechanismTable } from './perf-mechanisms.ts';
import { formatMs, perfMarkdown, type PerfRow } from './perf-report.ts';
import { againstSection, perfAgainst } from './perf-against.ts';

if (process.argv.includes('--against')) {
  await perfAgainst(process.argv.slice(2));
  process.exit(0);
}

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const out = option('--out', 'reports/perf.md');
const time = Number(option('--time', '300'));
if (!Number.isFinite(time) || time <= 0)
  throw new Error(`perf: --time must be a positive number of milliseconds, got ${option('--time', '')}`);
const benchSize = option('--bench', 'quick');
if (benchSize !== 'quick' && benchSize !== 'full') throw new Error(`perf: --bench must be quick or full, got ${benchSize}`);
const rounds = Number(option('--rounds', '1'));
if (!Number.isInteger(rounds) || rounds < 0 || rounds > 20)
  throw new Error(`perf: --rounds must be an integer from 0 to 20, got ${option('--rounds', '')}`);
const previous = existsSync(out) ? readFileSync(out, 'utf8') : undefined;

const catalog = loadCatalog(['catalogs/synthetic-120']);
const tasks = loadTasks('tasks/tasks.jsonl', catalog);
const tokens = tokenCounter('cl100k_base');
const bench = new Bench({ time, warmupIterations: 3 });

// Token counting: the raw encoder on every definition, and the memoised counter as the bench uses it.
const definitions = catalog.tools.map((t) => serializeToolDefinition(t.definition));
bench.add('count tokens: 120 definitions, BPE encode each', () => {
  for (const d of definitions) tokens.encode(d);
});
bench.add('count tokens: 120 definitions, memoised counter', () => {
  for (const d of definitions) tokens.count(d);
});
// What every memo miss of the counter checks first: does the text hold a run the BPE would take quadratic time on?
bench.add('find long runs: 120 definitions', () => {
  for (const d of definitions) hasLongRun(d);
});

// Routing one query: query embedding + exact top-10 search over the tool summaries, and the same on an HNSW graph.
const hnswNotes: string[] = [];
/** HNSW search beams benchmarked: the default and two wider ones. */
const HNSW_BEAMS = [HNSW_PARAMS.efSearch, 256, 1024];
const queries = tasks.slice(0, 50).map((t) => queryText(t.turns[0]!.user));
for (const n of [120, 1_000, 10_000]) {
  const scaled: Catalog =
    n === catalog.tools.length ? catalog : scaledCatalog(SERVER_SPECS, n, { seed: 42, required: [], base: catalog }).catalog;
  const encoder = createTfidfEncoder({ corpus: tfidfCorpus(scaled), maxFeatures: 512 });
  const { index, note } = await createVectorIndex(encoder.dim);
  index.add(
    scaled.tools.map((t) => t.id),
    await encoder.embed(scaled.tools.map(toolSummaryText)),
  );
  let q = 0;
  bench.add(`route one query: N = ${n.toLocaleString('en-US')} (tfidf-512, ${note.split(' ')[0]})`, async () => {
    const [v] = await encoder.embed([queries[q++ % queries.length]!]);
    index.search(v!, 10);
  });
  // The same routing on the approximate HNSW graph (search cost ~log N), with its recall@10
  // against the exact index on the same queries.
  const hnsw = await createVectorIndex(encoder.dim, { prefer: 'hnsw' }).catch((e: Error) => e);
  if (hnsw instanceof Error) {
    hnswNotes.push(`N = ${n.toLocaleString('en-US')}: no HNSW row (${hnsw.message}).`);
    continue;
  }
  const vectors = await encoder.embed(scaled.tools.map(toolSummaryText));
  const builtAt = performance.now();
  hnsw.index.add(
    scaled.tools.map((t) => t.id),
    vectors,
  );
  const buildMs = performance.now() - builtAt;
  // Recall against the exact index on the same queries, at the default beam and wider ones:
  // recall rises with the beam, and a query's cost with it (not with N).
  const exactHits = (await encoder.embed(queries)).map((v) => ({ v, exact: index.search(v, 10) }));
  const recallAt = (ef: number): string => {
    if (hnsw.index instanceof HnswIpIndex) hnsw.index.efSearch = ef;
    let found = 0;
    let wanted = 0;
    for (const { v, exact } of exactHits) {
      const cut = exact.at(-1)?.score ?? -Infinity;
      // A hit tied with the exact 10th score is as good as the one the exact index kept.
      found += hnsw.index.search(v, 10).filter((h) => h.score >= cut - 1e-6).length;
      wanted += exact.length;
    }
    return `${(found / Math.max(1, wanted)).toFixed(3)} at efSearch ${ef}`;
  };
  hnswNotes.push(
    `N = ${n.toLocaleString('en-US')}: HNSW recall@10 against the exact index ${HNSW_BEAMS.map(recallAt).join(', ')} over ${queries.length} queries; graph built in ${(buildMs / 1000).toFixed(2)} s.`,
  );
  for (const ef of HNSW_BEAMS) {
    let h = 0;
    bench.add(`route one query: N = ${n.toLocaleString('en-US')} (tfidf-512, hnsw-ip, efSearch ${ef})`, async () => {
      if (hnsw.index instanceof HnswIpIndex) hnsw.index.efSearch = ef;
      const [v] = await encoder.embed([queries[h++ % queries.length]!]);
      hnsw.index.search(v!, 10);
    });
  }
}

// ADOL's tag retrieval of one turn: the catalog's stemmed tag vocabulary against the message.
let tagTurn = 0;
bench.add('select tools by tags: one message, 120 tools', () => {
  selectByTags(tasks[tagTurn++ % tasks.length]!.turns[0]!.user, catalog.tools);
});

// Projecting one task: B1's measured turns of the first long task.
const longTask = tasks.find((t) => t.kind === 'long')!;
const b1 = PIPELINES.find((p) => p.id === 'b1-full-schema')!.create();
await b1.prepare?.({ catalog, tokens, seed: 42, workDir: '/tmp', calibrationTasks: [], historyTasks: [] });
const longRecords = await runPipeline(b1, [longTask], { catalog, tokens, seed: 42 });
bench.add(`project one task (${longTask.turns.length} turns)`, () => {
  projectPipeline(longRecords, PROJECTION_PARAMS, 42, { bootstrap: false });
});

// One bench turn per main pipeline: a one-turn task through the pipeline and the measurement.
const tfidf = createTfidfEncoder({ corpus: tfidfCorpus(catalog) });
const oneTurn: Task[] = tasks.filter((t) => t.kind === 'single').slice(0, 20);
for (const entry of PIPELINES.filter((p) => p.group === 'main')) {
  const pipeline = entry.create();
  await pipeline.prepare?.({ catalog, tokens, seed: 42, workDir: '/tmp', calibrationTasks: [], historyTasks: [], encoder: tfidf });
  let i = 0;
  bench.add(`one bench turn: ${pipeline.label}`, async () => {
    await runPipeline(pipeline, [oneTurn[i++ % oneTurn.length]!], { catalog, tokens, seed: 42 });
  });
}

await bench.run();

const kernels = await kernelTables(previous);
const mechanisms = rounds > 0 ? mechanismTable(rounds, benchSize, (line) => console.log(line)) : undefined;

const rows: PerfRow[] = bench.tasks.map((task) => {
  const result = task.result;
  if (!result || !('latency' in result)) throw new Error(`perf: benchmark "${task.name}" did not complete`);
  const l = result.latency;
  return { name: task.name, meanMs: l.mean, p50Ms: l.p50, p99Ms: l.p99, samples: l.samplesCount };
});

writeFileAtomic(
  out,
  perfMarkdown(
    rows,
    {
      timeMs: time,
      cores: cpus().length,
      loadAverage: loadavg(),
      node: process.version,
      routingNote: `Routing rows: the flat indexes scan every tool (cost linear in N); hnsw-ip (hnswlib-node, M = ${HNSW_PARAMS.m}, efConstruction = ${HNSW_PARAMS.efConstruction}, search beam efSearch = ${HNSW_PARAMS.efSearch} by default, rows at ${HNSW_BEAMS.join(' / ')}) visits ~log N nodes but may miss a true top-10 tool (a wider beam misses fewer and costs more per query), so the bench's measured pipelines keep the exact indexes.`,
      notes: hnswNotes,
      sections: [{ heading: KERNELS_HEADING, lines: kernels }, ...(mechanisms ? [{ heading: '## Mechanisms', lines: mechanisms }] : [])],
    },
    previous,
  ) + (againstSection(previous) ? `\n${againstSection(previous)}\n` : ''),
);
for (const r of rows) console.log(`${r.name.padEnd(60)} ${formatMs(r.meanMs).padStart(10)} ms`);
console.log(`perf: ${out}`);
