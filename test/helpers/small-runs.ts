import type { BenchOptions } from '../../src/bench/run.ts';
import type { LiveCommandOptions } from '../../src/commands/live.ts';

/**
 * The bench over the synthetic catalog and a small task file, with no pretrained encoder and no
 * training (TF-IDF, BM25): what a test of the bench's own machinery (lanes, shards) runs. The
 * default, learned, trains with use-lite on an empty cache (~20 s in CI).
 */
export function smallBenchOptions(tasksFile: string, more: Partial<BenchOptions> = {}): BenchOptions {
  return {
    root: process.cwd(),
    seed: 42,
    seeds: [42],
    catalog: ['catalogs/synthetic-120'],
    tasks: tasksFile,
    tokenizer: 'cl100k_base',
    encoder: 'tfidf',
    retriever: 'bm25',
    quick: false,
    log: () => {},
    ...more,
  };
}

/** `live` against the scripted stand-in at `baseUrl` (OpenAI-compatible, no key needed, no encoder model). */
export function standInLiveOptions(baseUrl: string, out: string, more: Partial<LiveCommandOptions> = {}): LiveCommandOptions {
  return {
    provider: 'openai',
    model: 'stand-in',
    baseUrl,
    tasks: 2,
    maxUsd: 1,
    price: [0, 0],
    maxTokens: 256,
    maxSteps: 6,
    timeout: 10,
    retries: 1,
    backoffMs: 1,
    out,
    dryRun: false,
    seed: 42,
    tokenizer: 'cl100k_base',
    encoder: 'tfidf',
    pipelines: ['b1-full-schema', 'b4-cli-lazy'],
    ...more,
  };
}
