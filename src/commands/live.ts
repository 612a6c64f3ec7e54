import { Command, InvalidArgumentError } from 'commander';
import { join } from 'node:path';
import { loadCatalog } from '../catalog/load.ts';
import { DEFAULT_ENCODER, ENCODER_NAMES, type EncoderName } from '../embed/registry.ts';
import { anthropicClient, ANTHROPIC_DEFAULT_BASE_URL } from '../live/anthropic-client.ts';
import { DEFAULT_RETRY, EndpointError, endpointUrl, type RetryPolicy } from '../live/http.ts';
import { urlSecrets } from '../mcp/redact.ts';
import { acquireRunLock } from '../results/lock.ts';
import { openAiClient, OPENAI_DEFAULT_BASE_URL } from '../live/openai-client.ts';
import { listPrice, type ModelPrice } from '../live/prices.ts';
import { runLive, type LiveRunResult } from '../live/run-live.ts';
import { PIPELINES } from '../pipelines/registry.ts';
import { tableToMarkdown } from '../report/table-text.ts';
import { createBenchEncoder } from '../retrieval/encoder.ts';
import { prewarmEmbeddings } from '../retrieval/prewarm.ts';
import { loadTasks } from '../tasks/load.ts';
import type { Task } from '../tasks/types.ts';
import { DEFAULT_TOKENIZER, tokenCounter, TOKENIZERS, type TokenizerName } from '../tokens/counter.ts';
import { DEFAULT_SEED, Rng } from '../util/rng.ts';
import { CALIBRATION_FILE, historySample, TASKS_FILE } from './prepare-inputs.ts';
import { SYNTHETIC_CATALOG_NAME } from '../catalog/generate.ts';
import { checkIds, idListParser, idParser } from './id-options.ts';
import { parseOutputDir } from './output-dir.ts';

/** Bad live options or a missing key: one line, exit 2, before any request. */
export class LiveUsageError extends Error {}

export const KEY_VARIABLE = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' } as const;
type Provider = keyof typeof KEY_VARIABLE;
const PROVIDERS = Object.keys(KEY_VARIABLE) as Provider[];

export interface LiveCommandOptions {
  provider: Provider;
  model: string;
  baseUrl?: string;
  tasks?: number;
  sample?: number;
  pipelines?: string[];
  maxUsd: number;
  price?: [number, number];
  maxTokens: number;
  maxSteps: number;
  timeout: number;
  retries: number;
  /** First back-off in ms (tests shorten it). */
  backoffMs: number;
  out?: string;
  dryRun: boolean;
  seed: number;
  tokenizer: TokenizerName;
  encoder: EncoderName;
}

const positiveInt = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
};
const nonNegative = (v: string) => {
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('expected a number ≥ 0');
  return n;
};
const nonNegativeInt = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected an integer ≥ 0');
  return n;
};
const pricePair = (v: string): [number, number] => {
  const parts = v.split(',').map(Number);
  if (parts.length !== 2 || parts.some((n) => !Number.isFinite(n) || n < 0))
    throw new InvalidArgumentError('expected <input USD per M tokens>,<output USD per M tokens>, e.g. 3,15');
  return [parts[0]!, parts[1]!];
};

/** `live`: registered on the CLI by src/cli.ts. */
export function liveCommand(root: string, log: (line: string) => void): Command {
  return new Command('live')
    .description(
      "run sampled tasks against a real model (OpenAI-compatible chat completions or Anthropic messages) with each pipeline's exact prompt; live success beside the projection, provider tokens beside ours, every request saved; key from OPENAI_API_KEY / ANTHROPIC_API_KEY",
    )
    .requiredOption(
      '--provider <name>',
      'openai (any OpenAI-compatible server) or anthropic',
      idParser({ noun: 'provider', ids: PROVIDERS }),
    )
    .requiredOption('--model <id>', 'model id, e.g. gpt-4o-mini, claude-sonnet-4-5')
    .option(
      '--base-url <url>',
      `API base URL (default ${OPENAI_DEFAULT_BASE_URL} or ${ANTHROPIC_DEFAULT_BASE_URL}; vLLM, llama.cpp, Ollama: their /v1)`,
    )
    .option('--tasks <n>', 'the first N tasks of tasks/tasks.jsonl', positiveInt)
    .option('--sample <n>', 'a seeded random sample of N tasks (default 20)', positiveInt)
    .option(
      '--pipelines <ids>',
      'comma-separated pipeline ids (default: the main methods)',
      idListParser({ noun: 'pipeline', ids: PIPELINES.map((p) => p.id) }),
    )
    .option('--max-usd <x>', 'budget cap: no request is sent that could take the spend past it', nonNegative, 5)
    .option(
      '--price <in,out>',
      'USD per million input,output tokens (required for models without a list price, e.g. 0,0 for a local server)',
      pricePair,
    )
    .option('--max-tokens <n>', 'max output tokens per model call', positiveInt, 1024)
    .option('--max-steps <n>', 'model calls at most per turn', positiveInt, 8)
    .option('--timeout <seconds>', 'per-request deadline', nonNegative, 120)
    .option('--retries <n>', 'retries on 429, 5xx and timeouts, with exponential back-off', nonNegativeInt, 4)
    .option('--backoff-ms <n>', 'first back-off (doubles per retry; Retry-After wins)', nonNegative, DEFAULT_RETRY.baseDelayMs)
    .option('--out <dir>', 'where requests, responses, outcomes and tables go (default results/live/<provider>-<model>)', parseOutputDir)
    .option('--dry-run', 'measure and price the run at list price; send nothing (no key needed)', false)
    .option('--seed <n>', 'seed of the sample and the projection', (v: string) => Number(v), DEFAULT_SEED)
    .option(
      '--tokenizer <name>',
      `our tokenizer (${TOKENIZERS.join(', ')})`,
      idParser({ noun: 'tokenizer', ids: TOKENIZERS }),
      DEFAULT_TOKENIZER,
    )
    .option(
      '--encoder <name>',
      `sentence encoder of the retrieval pipelines (${ENCODER_NAMES.join(', ')})`,
      idParser({ noun: 'encoder', ids: ENCODER_NAMES }),
      DEFAULT_ENCODER,
    )
    .action(async (o: LiveCommandOptions) => {
      try {
        process.exitCode = await live(o, root, log);
      } catch (err) {
        if (!(err instanceof LiveUsageError || err instanceof EndpointError)) throw err;
        console.error(`error: ${err instanceof EndpointError ? `live: ${err.message}` : err.message}`);
        process.exitCode = 2;
      }
    });
}

/**
 * Returns the exit status: 0 complete, 1 stopped early (budget cap or provider error). Throws
 * LiveUsageError for bad options and EndpointError for an endpoint that cannot be used (both
 * one line, exit 2), and an InputError when another run holds the output folder.
 */
export async function live(o: LiveCommandOptions, root: string, log: (line: string) => void): Promise<number> {
  // The key first: without it nothing else happens, and no request is ever sent.
  const variable = KEY_VARIABLE[o.provider];
  const apiKey = process.env[variable];
  if (!o.dryRun && !apiKey)
    throw new LiveUsageError(`live --provider ${o.provider} needs an API key in the environment variable ${variable} (or use --dry-run)`);
  if (o.tasks && o.sample) throw new LiveUsageError('live: give --tasks or --sample, not both');
  const listed = listPrice(o.model);
  const price: ModelPrice | undefined = o.price ? { inputPerMTok: o.price[0], outputPerMTok: o.price[1], source: '--price' } : listed;
  if (!price)
    throw new LiveUsageError(
      `live: no list price known for model ${JSON.stringify(o.model)}; give --price <input>,<output> (USD per million tokens; 0,0 for a local server)`,
    );
  const baseUrl = o.baseUrl ?? (o.provider === 'openai' ? OPENAI_DEFAULT_BASE_URL : ANTHROPIC_DEFAULT_BASE_URL);
  try {
    endpointUrl(baseUrl, '');
  } catch (err) {
    throw new LiveUsageError(`live: ${(err as Error).message}`);
  }
  checkIds('pipelines', o.pipelines ?? [], { noun: 'pipeline', ids: PIPELINES.map((p) => p.id) });
  const pipelines = o.pipelines
    ? PIPELINES.filter((p) => o.pipelines!.includes(p.id))
    : PIPELINES.filter((p) => p.group === 'main' && !p.ablationOf);

  const out = o.out ?? join(root, 'results', 'live', `${o.provider}-${o.model.replace(/[^A-Za-z0-9_.-]/g, '_')}`);
  // One writer per folder: a bench (or another live run) writing there refuses this run, and the reverse.
  const lock = acquireRunLock(out, `live --provider ${o.provider} --model ${o.model}`);

  let result: LiveRunResult;
  try {
    const catalog = loadCatalog(join(root, 'catalogs', SYNTHETIC_CATALOG_NAME));
    catalog.name = SYNTHETIC_CATALOG_NAME;
    const all = loadTasks(join(root, 'tasks', TASKS_FILE), catalog);
    const calibration = loadTasks(join(root, 'tasks', CALIBRATION_FILE), catalog);
    const { tasks, note } = chooseTasks(all, o);
    const tokens = tokenCounter(o.tokenizer);
    const encoder = await createBenchEncoder(o.encoder, catalog, { cacheDir: join(root, '.cache', 'embeddings') });
    await prewarmEmbeddings(encoder, { catalog, taskSets: [tasks, calibration], log });

    const retry: RetryPolicy = { ...DEFAULT_RETRY, attempts: o.retries + 1, baseDelayMs: o.backoffMs, timeoutMs: o.timeout * 1000 };
    const client = o.dryRun
      ? null
      : o.provider === 'openai'
        ? openAiClient(apiKey!, baseUrl, retry)
        : anthropicClient(apiKey!, baseUrl, retry);
    result = await runLive(
      {
        catalog,
        tasks,
        taskNote: note,
        calibrationTasks: calibration,
        historyTasks: historySample(o.seed),
        pipelines,
        tokens,
        tokenizer: o.tokenizer,
        encoder,
        seed: o.seed,
        out,
        log,
      },
      {
        client,
        provider: o.provider,
        model: o.model,
        baseUrl,
        secrets: [...(apiKey ? [apiKey] : []), ...urlSecrets(baseUrl)],
        price,
        priceFrom: o.price ? '--price' : price.source,
        maxUsd: o.maxUsd,
        maxTokens: o.maxTokens,
        maxSteps: o.maxSteps,
      },
    );
  } finally {
    lock.release();
  }
  for (const t of result.tables) log(`\n${tableToMarkdown(t)}`);
  log(`\n${o.dryRun ? 'dry run: nothing sent' : `spent $${result.spentUsd.toFixed(4)} of --max-usd ${o.maxUsd}`}; results: ${out}`);
  if (result.stopped) console.error(`live: stopped early: ${result.stopped}`);
  return result.stopped ? 1 : 0;
}

function chooseTasks(all: Task[], o: Pick<LiveCommandOptions, 'tasks' | 'sample' | 'seed'>): { tasks: Task[]; note: string } {
  if (o.tasks) return { tasks: all.slice(0, o.tasks), note: `The first ${Math.min(o.tasks, all.length)} tasks of tasks/${TASKS_FILE}` };
  const n = Math.min(o.sample ?? 20, all.length);
  const picked = new Set(new Rng(o.seed, 'live-sample').shuffle(all.map((_, i) => i)).slice(0, n));
  return { tasks: all.filter((_, i) => picked.has(i)), note: `A seeded sample (seed ${o.seed}) of ${n} tasks of tasks/${TASKS_FILE}` };
}
