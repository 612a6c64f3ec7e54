/**
 * Retrieval speed per query, after the encoder (target: p50 < 5 ms at 527 tools), with
 * tinybench: each iteration ranks every tool of the catalog for one query of the suite,
 * cycling through its queries: the real query set (default), the synthetic tasks
 * (--suite synthetic) or any other fixed suite of the registry (src/table/suites.ts) by its id,
 * such as the LiveMCPBench development half over its 527 tools (--suite livemcpbench). Query embeddings are computed once before timing (the dense encoder's
 * cost is the router-latency table's, not this), and no score is kept (TOOLTAX_KEEP_SCORES=0),
 * so a dense or learned iteration is feature work, cosine and the reranker, not a lookup.
 *
 *   npx tsx scripts/bench-retrieval.ts [--suite real|synthetic|livemcpbench|<suite id>] [--retriever a,b] [--time <ms>]
 *
 * Prints a Markdown table (p50, p95, mean in ms, samples) and the process CPU time. On a shared
 * machine the wall-clock numbers are noisy; compare retrievers within one run.
 */
import { join, resolve } from 'node:path';
import { Bench } from 'tinybench';
import { loadCatalog } from '../src/catalog/load.ts';
import { allRetrieverNames, retrieverByName } from '../src/retrieval/registry.ts';
import { DEFAULT_QUERY_MODE, turnQuery } from '../src/retrieval/query.ts';
import { rankScores } from '../src/retrieval/types.ts';
import { loadTasks } from '../src/tasks/load.ts';
import { loadSuite } from '../src/tasks/bundled-suites.ts';
import { REAL_SUITE, SUITES } from '../src/table/suites.ts';
import { SYNTHETIC_CATALOG_NAME } from '../src/catalog/generate.ts';

const ROOT = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const suite = opt('--suite') ?? REAL_SUITE.id;
const fixed = SUITES.filter((s) => s.data);
const ids = ['synthetic', ...fixed.map((s) => s.id)];
if (!ids.includes(suite)) {
  console.error(`bench-retrieval: --suite: expected one of ${ids.join(', ')}, found ${JSON.stringify(suite)}`);
  process.exit(2);
}
const names = opt('--retriever')?.split(',') ?? allRetrieverNames();
const time = Number(opt('--time') ?? 500);

// Ranked, not looked up: set before the registry creates any retriever.
process.env.TOOLTAX_KEEP_SCORES = '0';
const loaded =
  suite === 'synthetic'
    ? (() => {
        const catalog = loadCatalog(join(ROOT, 'catalogs', SYNTHETIC_CATALOG_NAME));
        return { catalog, tasks: loadTasks(join(ROOT, 'tasks', 'tasks.jsonl'), catalog) };
      })()
    : loadSuite(
        fixed.find((s) => s.id === suite)!,
        ROOT,
      );
if (!loaded) throw new Error(`bench-retrieval: the ${suite} suite's files are missing`);
const { catalog, tasks } = loaded;
const queries = tasks.flatMap((t) => t.turns.map((_, i) => turnQuery(t.turns, i, DEFAULT_QUERY_MODE)));

const rows: string[] = [];
for (const name of names) {
  const retriever = retrieverByName(name);
  const fitted = await retriever.fit(catalog.tools);
  // Warm every query once: dense encoders then answer from their in-memory cache.
  await fitted.score(queries);
  let next = 0;
  let sink = 0;
  const bench = new Bench({ name, time, iterations: queries.length, retainSamples: true, warmupIterations: 5 });
  bench.add(name, async () => {
    const [scores] = await fitted.score([queries[next++ % queries.length]!]);
    sink += rankScores(fitted.ids, scores!)[0]!.score;
  });
  const cpu = process.cpuUsage();
  await bench.run();
  const used = process.cpuUsage(cpu);
  if (Number.isNaN(sink)) throw new Error('unreachable');
  const result = bench.getTask(name)?.result;
  if (!result || !('latency' in result)) throw new Error(`${name}: the benchmark did not complete`);
  const samples = [...(result.latency.samples ?? [])].sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  const mean = samples.reduce((s, x) => s + x, 0) / samples.length;
  const cpuPerQuery = (used.user + used.system) / 1000 / samples.length;
  rows.push(
    `| ${name} | ${at(0.5).toFixed(3)} | ${at(0.95).toFixed(3)} | ${mean.toFixed(3)} | ${cpuPerQuery.toFixed(3)} | ${samples.length} |`,
  );
}
console.log(
  `Retrieval per query on ${catalog.name} (${catalog.tools.length} tools, ${queries.length} queries), ranking every tool, after the encoder:\n`,
);
console.log('| retriever | p50 ms | p95 ms | mean ms | CPU ms/query | samples |\n| --- | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) console.log(r);
