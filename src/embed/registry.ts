import { withDiskCache, type DiskCacheOptions } from './cache.ts';
import { createMiniLmEncoder, type MiniLmOptions } from './minilm.ts';
import { createTfidfEncoder, type TfidfOptions } from './tfidf.ts';
import type { Encoder } from './types.ts';
import { createUseLiteEncoder, type UseLiteOptions } from './use-lite.ts';

export const ENCODER_NAMES = Object.freeze(['use-lite', 'minilm', 'tfidf'] as const);
export type EncoderName = (typeof ENCODER_NAMES)[number];
export const DEFAULT_ENCODER: EncoderName = 'use-lite';

export interface EncoderOptions {
  useLite?: UseLiteOptions;
  minilm?: MiniLmOptions;
  /** Required for `tfidf`: the corpus to fit on. */
  tfidf?: TfidfOptions;
  /** Wrap the encoder in the disk cache (default true); `false` for raw timings. */
  cache?: boolean | DiskCacheOptions;
}

export function isEncoderName(name: string): name is EncoderName {
  return (ENCODER_NAMES as readonly string[]).includes(name);
}

/**
 * Build an encoder by name. Loads the model now, so a missing model fails here with its own
 * explanation rather than in the middle of a run. With caching on (the default) the result is a
 * CachedEncoder (`instanceof CachedEncoder`), whose stats() give hit/miss counts.
 */
export async function createEncoder(name: string, options: EncoderOptions = {}): Promise<Encoder> {
  if (!isEncoderName(name)) throw new Error(`unknown encoder ${JSON.stringify(name)}; expected one of ${ENCODER_NAMES.join(', ')}`);
  let encoder;
  switch (name) {
    case 'use-lite':
      encoder = await createUseLiteEncoder(options.useLite);
      break;
    case 'minilm':
      encoder = await createMiniLmEncoder(options.minilm);
      break;
    case 'tfidf':
      if (!options.tfidf) throw new Error('the tfidf encoder needs options.tfidf.corpus (the texts to fit its vocabulary on)');
      encoder = createTfidfEncoder(options.tfidf);
      break;
  }
  const cache = options.cache ?? true;
  if (cache === false) return encoder;
  return withDiskCache(encoder, cache === true ? {} : cache);
}
