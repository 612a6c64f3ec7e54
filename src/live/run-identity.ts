import { Ajv } from 'ajv';
import { createHash } from 'node:crypto';
import { InputError } from '../util/input-error.ts';
import type { Catalog } from '../catalog/types.ts';
import type { Task } from '../tasks/types.ts';
import type { ModelPrice } from './prices.ts';

/**
 * What decides a live run's requests and outcomes: a journal resumes only a run with the same
 * identity, and every shard of one run has the same. Not in it: `--max-usd` (a run stopped by
 * the cap resumes with a higher one), the retry and timeout settings, the key.
 */
export interface LiveRunIdentity {
  provider: string;
  model: string;
  /** Without credentials or query values: those are secrets and never written. */
  baseUrl: string;
  price: ModelPrice;
  priceFrom: string;
  maxTokens: number;
  maxSteps: number;
  /** How the tasks were chosen, and their ids in order. */
  tasks: { note: string; ids: string[] };
  pipelines: string[];
  seed: number;
  tokenizer: string;
  /** The retrieval pipelines' sentence encoder (null: none given). */
  encoder: string | null;
  /** SHA-256 of the catalog, the tasks and the calibration and history tasks (liveInputsFingerprint). */
  inputs: string;
}

/** The option that sets each field, for the one line that refuses a folder of another run. */
const OPTION_OF: Readonly<Record<keyof LiveRunIdentity, string>> = {
  provider: '--provider',
  model: '--model',
  baseUrl: '--base-url',
  price: '--price',
  priceFrom: '--price',
  maxTokens: '--max-tokens',
  maxSteps: '--max-steps',
  tasks: '--tasks or --sample',
  pipelines: '--pipelines',
  seed: '--seed',
  tokenizer: '--tokenizer',
  encoder: '--encoder',
  inputs: 'the catalog or task files',
};

export function liveInputsFingerprint(
  catalog: Catalog,
  tasks: readonly Task[],
  calibration: readonly Task[],
  history: readonly Task[],
): string {
  return createHash('sha256').update(JSON.stringify({ catalog, tasks, calibration, history })).digest('hex');
}

export interface IdentityDifference {
  /** JSON path of the field. */
  path: string;
  /** The option (or input) that differs. */
  option: string;
  recorded: unknown;
  here: unknown;
}

/** The first field in which a recorded run differs from this one, or undefined when none does. */
export function identityDifference(recorded: LiveRunIdentity, here: LiveRunIdentity): IdentityDifference | undefined {
  for (const field of Object.keys(OPTION_OF) as (keyof LiveRunIdentity)[]) {
    if (JSON.stringify(recorded?.[field]) === JSON.stringify(here[field])) continue;
    return { path: field, option: OPTION_OF[field], recorded: recorded?.[field], here: here[field] };
  }
  return undefined;
}

/** A field's value for a one-line message: short JSON, a hash or a long list summarised. */
export function shownValue(value: unknown): string {
  if (Array.isArray(value) && value.length > 4) return `${value.length} items starting ${JSON.stringify(value.slice(0, 2))}`;
  if (value && typeof value === 'object' && 'ids' in value) return shownValue((value as { ids: unknown }).ids);
  const text = JSON.stringify(value) ?? 'nothing';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

const STRING = { type: 'string' };
const RATE = { type: 'number', minimum: 0 };
const SETTINGS_SCHEMA = {
  type: 'object',
  required: [
    'provider',
    'model',
    'baseUrl',
    'price',
    'priceFrom',
    'maxTokens',
    'maxSteps',
    'tasks',
    'pipelines',
    'seed',
    'tokenizer',
    'encoder',
  ],
  properties: {
    provider: { enum: ['openai', 'anthropic'] },
    model: STRING,
    baseUrl: STRING,
    price: {
      type: 'object',
      required: ['inputPerMTok', 'outputPerMTok', 'source'],
      properties: { inputPerMTok: RATE, outputPerMTok: RATE, cachedInputPerMTok: RATE, source: STRING },
    },
    priceFrom: STRING,
    maxTokens: { type: 'integer', minimum: 1 },
    maxSteps: { type: 'integer', minimum: 1 },
    tasks: { type: 'object', required: ['note', 'ids'], properties: { note: STRING, ids: { type: 'array', items: STRING } } },
    pipelines: { type: 'array', items: STRING },
    seed: { type: 'number' },
    tokenizer: STRING,
    encoder: { type: ['string', 'null'] },
  },
};
const validSettings = new Ajv({ strict: false }).compile<Omit<LiveRunIdentity, 'inputs'>>(SETTINGS_SCHEMA);

/** A live run's settings as a part folder records them (all but the inputs' fingerprint), checked like any input. */
export function liveSettingsIn(value: unknown, file: string, path: string): Omit<LiveRunIdentity, 'inputs'> {
  if (validSettings(value)) return value;
  const at = validSettings.errors?.[0];
  throw new InputError(
    file,
    `${path}${(at?.instancePath ?? '').replace(/\//g, '.')}`,
    `a live run's settings (${at?.message ?? 'valid'})`,
    'something else',
  );
}
