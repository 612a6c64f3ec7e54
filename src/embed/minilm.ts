import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Encoder } from './types.ts';
import { l2Normalize } from './vector.ts';

const MINILM_MODEL_ID = 'Xenova/all-MiniLM-L6-v2';
const MINILM_DIM = 384;

export interface MiniLmOptions {
  /** Local model directory; defaults to the TOOLTAX_MINILM_DIR environment variable. */
  modelDir?: string;
  /** Allow downloading from the Hugging Face hub; defaults to TOOLTAX_ALLOW_REMOTE_MODELS=1. */
  allowRemote?: boolean;
  /** Use onnx/model_quantized.onnx (default, what transformers.js ships) or onnx/model.onnx. */
  quantized?: boolean;
  batchSize?: number;
}

/** Raised when the MiniLM weights are not available; the message says how to get them. */
export class MiniLmUnavailableError extends Error {
  constructor(detail: string) {
    super(
      `minilm encoder unavailable: ${detail}\n` +
        `To use it, either\n` +
        `  (a) on a machine with network, download the ${MINILM_MODEL_ID} files (config.json, tokenizer.json,\n` +
        `      tokenizer_config.json, onnx/model_quantized.onnx) from https://huggingface.co/${MINILM_MODEL_ID}\n` +
        `      (e.g. \`git clone https://huggingface.co/${MINILM_MODEL_ID}\`), copy the folder here and set\n` +
        `      TOOLTAX_MINILM_DIR=/path/to/all-MiniLM-L6-v2 (or to a folder containing ${MINILM_MODEL_ID}/); or\n` +
        `  (b) set TOOLTAX_ALLOW_REMOTE_MODELS=1 to let @xenova/transformers download them from the hub.\n` +
        `The use-lite encoder needs neither and works offline.`,
    );
    this.name = 'MiniLmUnavailableError';
  }
}

/**
 * all-MiniLM-L6-v2 through @xenova/transformers (mean pooling, normalised). No pretrained
 * weights can be fetched on an offline machine, so this resolves a local directory or (when
 * explicitly allowed) the hub, and otherwise fails loudly: a silent fallback to another
 * encoder would mislabel every result.
 */
export async function createMiniLmEncoder(options: MiniLmOptions = {}): Promise<Encoder & { fingerprint: string }> {
  const modelDir = options.modelDir ?? (process.env.TOOLTAX_MINILM_DIR || undefined);
  const allowRemote = options.allowRemote ?? process.env.TOOLTAX_ALLOW_REMOTE_MODELS === '1';
  const quantized = options.quantized ?? true;
  const batchSize = options.batchSize ?? 64;
  const onnxFile = quantized ? 'onnx/model_quantized.onnx' : 'onnx/model.onnx';
  const required = ['config.json', 'tokenizer.json', 'tokenizer_config.json', onnxFile];

  // transformers.js looks for <localModelPath>/<modelId>/<file>; accept either the model folder
  // itself or a root that contains Xenova/all-MiniLM-L6-v2/.
  let local: { root: string; modelId: string } | undefined;
  if (modelDir) {
    const dir = resolve(modelDir);
    const candidates = [
      { root: dir, modelId: MINILM_MODEL_ID },
      { root: dirname(dir), modelId: basename(dir) },
    ];
    local = candidates.find((c) => required.every((f) => existsSync(join(c.root, c.modelId, f))));
    if (!local && !allowRemote) {
      const missing = required.filter((f) => !existsSync(join(dir, f)));
      throw new MiniLmUnavailableError(
        `TOOLTAX_MINILM_DIR=${dir} lacks ${missing.join(', ')} (looked in it and in ${join(dir, MINILM_MODEL_ID)})`,
      );
    }
  } else if (!allowRemote) {
    throw new MiniLmUnavailableError('TOOLTAX_MINILM_DIR is not set and TOOLTAX_ALLOW_REMOTE_MODELS is not 1');
  }

  // Imported lazily: onnxruntime-node is heavy and only this encoder needs it.
  const { pipeline, env } = await import('@xenova/transformers');
  env.allowLocalModels = local !== undefined;
  env.allowRemoteModels = local === undefined && allowRemote;
  if (local) env.localModelPath = local.root;
  const modelId = local?.modelId ?? MINILM_MODEL_ID;

  let extractor: Awaited<ReturnType<typeof pipeline>>;
  try {
    extractor = await pipeline('feature-extraction', modelId, { quantized });
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    throw new MiniLmUnavailableError(
      local ? `loading from ${join(local.root, modelId)} failed: ${msg}` : `download from the hub failed: ${msg}`,
    );
  }
  const source = local ? join(local.root, modelId) : `hub:${MINILM_MODEL_ID}`;

  return {
    name: 'minilm',
    description: `all-MiniLM-L6-v2 (${MINILM_DIM}-d, ${quantized ? 'quantized' : 'fp32'} onnx) via @xenova/transformers, mean pooling, L2-normalised; weights from ${source}`,
    dim: MINILM_DIM,
    fingerprint: `${MINILM_MODEL_ID}:${quantized ? 'q8' : 'fp32'}`,
    async embed(texts: readonly string[]): Promise<Float32Array[]> {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        const batch = texts.slice(i, i + batchSize);
        const tensor = (await extractor(batch, { pooling: 'mean', normalize: true })) as { data: Float32Array; dims: number[] };
        const dim = tensor.dims[tensor.dims.length - 1]!;
        if (dim !== MINILM_DIM) throw new Error(`minilm: model returned ${dim}-d vectors, expected ${MINILM_DIM}`);
        for (let r = 0; r < batch.length; r++) out.push(l2Normalize(tensor.data.slice(r * dim, (r + 1) * dim)));
      }
      return out;
    },
  };
}
