import { Command, InvalidArgumentError } from 'commander';
import { join, resolve } from 'node:path';
import { loadCatalog } from '../catalog/load.ts';
import { DEFAULT_ENCODER, ENCODER_NAMES, type EncoderName } from '../embed/registry.ts';
import { anthropicClient, ANTHROPIC_DEFAULT_BASE_URL } from '../live/anthropic-client.ts';
import { DEFAULT_RETRY, EndpointError, endpointUrl, type RetryPolicy } from '../live/http.ts';
import { urlSecrets } from '../mcp/redact.ts';
import { acquireRunLock } from '../results/lock.ts';
import { RESULTS_DIR } from '../results/partial-run.ts';
import { openAiClient, OPENAI_DEFAULT_BASE_URL } from '../live/openai-client.ts';
import { openAiProviderClient, openAiResponsesClient } from '../live/openai-responses-client.ts';
import { hostSearchProvider, isHostSearch } from '../pipelines/host-search/entries.ts';
import type { ChatClient } from '../live/types.ts';
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
import { CALIBRATION_FILE, historySample, TASKS_FILE } from '../bench/synthetic-inputs.ts';
import { SYNTHETIC_CATALOG_NAME } from '../catalog/generate.ts';
import { idListParser, idParser } from './id-options.ts';
import { checkIds } from '../util/ids.ts';
import { parseOutputDir } from './output-dir.ts';
import { asOptionParser } from './option-parser.ts';
import type { Catalog } from '../catalog/types.ts';
import type { Encoder } from '../embed/types.ts';
import { LIVE_RUN_FILE, LIVE_RUN_JSON } from '../live/run-folder.ts';
import { readJsonFile } from '../util/json-file.ts';
import { liveInputsFingerprint, liveSettingsIn } from '../live/run-identity.ts';
import { readRecordedCalls, RecordedCalls } from '../live/journal.ts';
import type { LiveRunInputs, LiveShard } from '../live/run-live.ts';
import { checkMergeMatches, snapshotFolder, writePart, type ReadPart, type RunIdentity } from '../results/shard-part.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import { InputError } from '../util/input-error.ts';
import { codeFingerprint } from '../util/provenance.ts';
import { planByCost } from '../util/plan-by-cost.ts';
import { parseShard, type ShardSpec } from './shard-spec.ts';

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
  /** Forget the folder's journal (and the exchanges it recorded) and send every request again. */
  fresh?: boolean;
  /** Run one shard of the run's (pipeline, task) units into a part folder (`merge` joins the parts). */
  shard?: ShardSpec;
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
const shardOption = asOptionParser<ShardSpec>((v) => parseShard(v));
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
      "run sampled tasks against a real model (OpenAI-compatible chat completions, OpenAI's Responses API for tool search, or Anthropic messages) with each pipeline's exact prompt; live success beside the projection, provider tokens beside ours, every request saved; key from OPENAI_API_KEY / ANTHROPIC_API_KEY",
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
      'comma-separated pipeline ids (default: the main methods but the host tool searches, which need a model that supports them)',
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
    .option(
      '--fresh',
      "start over: remove the folder's journal and the exchanges it recorded, and send every request again (default: a folder holding a journal of the same run resumes it)",
      false,
    )
    .option(
      '--shard <i/n>',
      'run only shard i of n of the (pipeline, task) units (or env/n: i from TOOLTAX_SHARD_INDEX, SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX) into a part folder; `merge` joins the parts; --max-usd applies to each shard',
      shardOption,
    )
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
 * one line, exit 2), and an InputError when another run holds the output folder or its journal
 * is of a run with other settings. A folder holding the journal of the same run resumes it.
 */
export async function live(o: LiveCommandOptions, root: string, log: (line: string) => void): Promise<number> {
  // The key first: without it nothing else happens, and no request is ever sent.
  const variable = KEY_VARIABLE[o.provider];
  const apiKey = process.env[variable];
  if (!o.dryRun && !apiKey)
    throw new LiveUsageError(`live --provider ${o.provider} needs an API key in the environment variable ${variable} (or use --dry-run)`);
  if (o.tasks && o.sample) throw new LiveUsageError('live: give --tasks or --sample, not both');
  const tokenizer = o.tokenizer;
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
  const pipelines = o.pipelines ? PIPELINES.filter((p) => o.pipelines!.includes(p.id)) : defaultLivePipelines();
  for (const p of pipelines) {
    const needs = hostSearchProvider(p.id);
    if (needs && needs !== o.provider)
      throw new LiveUsageError(
        `live: ${p.id} sends ${needs === 'openai' ? "OpenAI's tool_search" : "Anthropic's tool search tool"}: run it with --provider ${needs}`,
      );
  }

  if (o.dryRun && o.shard) throw new LiveUsageError('live: --dry-run prices the whole run: give no --shard');
  const folder = o.out ?? defaultLiveOut(root, o.provider, o.model);
  // A shard's part never lands on the whole run's folder by default.
  const out = o.shard && !o.out ? join(folder, `shard-${o.shard.index}-of-${o.shard.count}`) : folder;
  // One writer per folder: a bench (or another live run) writing there refuses this run, and the reverse.
  const lock = acquireRunLock(
    out,
    `live --provider ${o.provider} --model ${o.model}${o.shard ? ` --shard ${o.shard.index}/${o.shard.count}` : ''}`,
  );

  const spec = o.shard;
  let result: LiveRunResult;
  try {
    const inputs = await loadLiveInputs(root, { ...o, tokenizer }, (all) => chooseTasks(all, o), pipelines, out, log);
    const retry: RetryPolicy = { ...DEFAULT_RETRY, attempts: o.retries + 1, baseDelayMs: o.backoffMs, timeoutMs: o.timeout * 1000 };
    const client = o.dryRun ? null : providerClient(o.provider, apiKey!, baseUrl, retry);
    let plan: string[][] = [];
    const shard: LiveShard | undefined = spec && {
      spec,
      select: (units) => {
        plan = planByCost(
          units.map((u) => ({ item: u.key, cost: u.estimatedCalls })),
          spec.count,
        );
        return new Set(plan[spec.index - 1]);
      },
    };
    result = await runLive(inputs, {
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
      fresh: o.fresh === true,
      shard,
    });
    if (spec) writeLivePart(out, spec, plan, result, root);
  } finally {
    lock.release();
  }
  for (const t of result.tables) log(`\n${tableToMarkdown(t)}`);
  if (result.replayed) log(`\n${result.replayed} calls replayed from the journal, ${result.sent} sent`);
  log(`\n${o.dryRun ? 'dry run: nothing sent' : `spent $${result.spentUsd.toFixed(4)} of --max-usd ${o.maxUsd}`}; results: ${out}`);
  if (spec) log(`shard ${spec.index}/${spec.count}: a part of the run; join every shard's folder with \`merge\``);
  if (result.stopped) console.error(`live: stopped early: ${result.stopped}`);
  return result.stopped ? 1 : 0;
}

/**
 * The pipelines of a live run without --pipelines: the main methods, but not the host tool
 * searches, which need a model that supports them (Claude Sonnet/Opus 4.5 and later, gpt-5.4
 * and later): a run names them.
 */
function defaultLivePipelines() {
  return PIPELINES.filter((p) => p.group === 'main' && !p.ablationOf && !isHostSearch(p.id));
}

/** A provider's client: Anthropic messages; for openai, chat completions and the Responses API for a request with a tool search. */
function providerClient(provider: Provider, apiKey: string, baseUrl: string, retry?: RetryPolicy): ChatClient {
  if (provider === 'anthropic') return anthropicClient(apiKey, baseUrl, retry);
  return openAiProviderClient(openAiClient(apiKey, baseUrl, retry), openAiResponsesClient(apiKey, baseUrl, retry));
}

/** The default output folder of a live run: results/live/<provider>-<model>. */
function defaultLiveOut(root: string, provider: string, model: string): string {
  return join(root, RESULTS_DIR, 'live', `${provider}-${model.replace(/[^A-Za-z0-9_.-]/g, '_')}`);
}

/** The synthetic catalog, the chosen tasks, the calibration and history tasks, the tokenizer and the encoder of a live run. */
async function loadLiveInputs(
  root: string,
  o: { seed: number; tokenizer: TokenizerName; encoder: string },
  choose: (all: Task[]) => { tasks: Task[]; note: string },
  pipelines: LiveRunInputs['pipelines'],
  out: string,
  log: (line: string) => void,
): Promise<LiveRunInputs> {
  const catalog: Catalog = loadCatalog(join(root, 'catalogs', SYNTHETIC_CATALOG_NAME));
  catalog.name = SYNTHETIC_CATALOG_NAME;
  const all = loadTasks(join(root, 'tasks', TASKS_FILE), catalog);
  const calibration = loadTasks(join(root, 'tasks', CALIBRATION_FILE), catalog);
  const { tasks, note } = choose(all);
  const tokens: TokenCounter = tokenCounter(o.tokenizer);
  const encoder: Encoder = await createBenchEncoder(o.encoder, catalog, { cacheDir: join(root, '.cache', 'embeddings') });
  await prewarmEmbeddings(encoder, { catalog, taskSets: [tasks, calibration], log });
  return {
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
  };
}

/**
 * A live shard's part folder, as a bench shard's (src/results/shard-part.ts): shard.json names
 * the run (its identity, this checkout's code, the plan) and lists every file the shard wrote
 * with its hash, the journal among them: `merge` replays the run from the parts' journals.
 */
function writeLivePart(out: string, spec: ShardSpec, plan: string[][], result: LiveRunResult, root: string): void {
  const { inputs, ...settings } = result.identity;
  // Everything in the folder but the run's own files counts as there before: only the run's are listed.
  const before = new Map(snapshotFolder(out));
  for (const file of result.files) before.delete(file);
  const run: RunIdentity = { settings: { ...settings }, inputs, code: codeFingerprint(root), v8: process.versions.v8, plan };
  writePart(out, { kind: 'live', shard: spec, run, units: plan[spec.index - 1]! }, before);
}

/**
 * `merge` of live parts (`live --shard i/n`): checks that every shard ran to the end, then runs
 * the whole run again with the parts' settings, every call replayed from the parts' journals and
 * none sent, into one live results folder: the same files as an unsharded run of the same
 * settings, apart from timing fields. Its cap is the sum of the shards' (each shard's --max-usd
 * applied to that shard alone). Returns the exit status.
 */
export async function mergeLiveParts(
  parts: readonly ReadPart[],
  outOption: string | undefined,
  root: string,
  log: (line: string) => void,
): Promise<number> {
  const run = liveSettingsIn(parts[0]!.run.settings, join(parts[0]!.dir, 'shard.json'), '$.run.settings');
  try {
    endpointUrl(run.baseUrl, '');
  } catch (err) {
    throw new InputError(join(parts[0]!.dir, 'shard.json'), '$.run.settings.baseUrl', 'an http(s) URL', (err as Error).message);
  }
  let maxUsd = 0;
  for (const part of parts) {
    const file = join(part.dir, LIVE_RUN_FILE);
    const info = readJsonFile(file, LIVE_RUN_JSON);
    if (info.stopped !== null)
      throw new InputError(
        file,
        '$.stopped',
        'a shard that ran to the end (null)',
        `${JSON.stringify(String(info.stopped).slice(0, 120))}: run that shard again with its options (a higher --max-usd if the cap stopped it): it resumes`,
      );
    maxUsd += info.maxUsd;
  }
  const out = resolve(outOption ?? defaultLiveOut(root, run.provider, run.model));
  if (parts.some((p) => resolve(p.dir) === out))
    throw new InputError(out, '', 'an --out folder that is not one of the parts', 'a part folder (the merge would overwrite it)');
  const pipelines = run.pipelines.map((id) => {
    const entry = PIPELINES.find((p) => p.id === id);
    if (!entry)
      throw new InputError(join(parts[0]!.dir, 'shard.json'), '$.run.settings.pipelines', 'pipelines of this checkout', JSON.stringify(id));
    return entry;
  });
  const lock = acquireRunLock(out, 'merge (live parts)');
  let result: LiveRunResult;
  try {
    const encoder = run.encoder ?? DEFAULT_ENCODER;
    if (!(ENCODER_NAMES as readonly string[]).includes(encoder))
      throw new InputError(
        join(parts[0]!.dir, 'shard.json'),
        '$.run.settings.encoder',
        `one of ${ENCODER_NAMES.join(', ')}`,
        JSON.stringify(encoder),
      );
    const tokenizer = TOKENIZERS.find((t) => t === run.tokenizer);
    if (!tokenizer)
      throw new InputError(
        join(parts[0]!.dir, 'shard.json'),
        '$.run.settings.tokenizer',
        `one of ${TOKENIZERS.join(', ')}`,
        JSON.stringify(tokenizer),
      );
    const inputs = await loadLiveInputs(
      root,
      { seed: run.seed, tokenizer, encoder },
      (all) => ({ tasks: tasksById(all, run.tasks.ids, join(root, 'tasks', TASKS_FILE)), note: run.tasks.note }),
      pipelines,
      out,
      log,
    );
    const here: RunIdentity = {
      ...parts[0]!.run,
      code: codeFingerprint(root),
      v8: process.versions.v8,
      inputs: liveInputsFingerprint(inputs.catalog, inputs.tasks, inputs.calibrationTasks, inputs.historyTasks),
    };
    checkMergeMatches(parts[0]!, here);
    const shards = new RecordedCalls();
    for (const part of parts) shards.addAll(readRecordedCalls(part.dir));
    // The client only shapes the requests (to check them against the recorded ones): nothing is sent, no key is needed.
    const client = providerClient(run.provider === 'openai' ? 'openai' : 'anthropic', '', run.baseUrl);
    result = await runLive(inputs, {
      client,
      provider: run.provider,
      model: run.model,
      baseUrl: run.baseUrl,
      secrets: [],
      price: run.price,
      priceFrom: run.priceFrom,
      maxUsd,
      maxTokens: run.maxTokens,
      maxSteps: run.maxSteps,
      shards,
    });
  } finally {
    lock.release();
  }
  for (const t of result.tables) log(`\n${tableToMarkdown(t)}`);
  log(
    `\nmerged ${parts.length} live parts (${result.replayed} calls, none sent; spent $${result.spentUsd.toFixed(4)} in all); results: ${out}`,
  );
  if (result.stopped) console.error(`live: stopped early: ${result.stopped}`);
  return result.stopped ? 1 : 0;
}

/** The tasks with these ids, in this order; a missing one is a one-line InputError. */
function tasksById(all: readonly Task[], ids: readonly string[], file: string): Task[] {
  const byId = new Map(all.map((t) => [t.id, t]));
  return ids.map((id) => {
    const task = byId.get(id);
    if (!task) throw new InputError(file, '', `task ${JSON.stringify(id)}, which the shards ran`, 'none (the task file changed since)');
    return task;
  });
}

function chooseTasks(all: Task[], o: Pick<LiveCommandOptions, 'tasks' | 'sample' | 'seed'>): { tasks: Task[]; note: string } {
  if (o.tasks) return { tasks: all.slice(0, o.tasks), note: `The first ${Math.min(o.tasks, all.length)} tasks of tasks/${TASKS_FILE}` };
  const n = Math.min(o.sample ?? 20, all.length);
  const picked = new Set(new Rng(o.seed, 'live-sample').shuffle(all.map((_, i) => i)).slice(0, n));
  return { tasks: all.filter((_, i) => picked.has(i)), note: `A seeded sample (seed ${o.seed}) of ${n} tasks of tasks/${TASKS_FILE}` };
}
