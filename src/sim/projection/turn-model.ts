import type { TaskKind } from '../../tasks/types.ts';
import type { ListedForm } from '../selection.ts';
import { NOLIMA_CURVE, PROJECTION_PARAMS, valuesOf, type ParamKey, type ParamValues, type ProjectionParams } from './params.ts';

/** The parameters of the `reasoning.` group: the only ones the reasoning factor and rho read. */
type ReasoningKey = Extract<ParamKey, `reasoning.${string}`>;

/**
 * Every `reasoning.` parameter, derived from the parameter table: the projection memoises a
 * task's reasoning factors and rho by their values (./project.ts). The functions below read
 * parameters only through `reasoningValues`, whose type has these keys alone, so reading any
 * other parameter there does not compile (test/sim/turn-model.test.ts checks it at run time too).
 */
export const REASONING_KEYS = (Object.keys(PROJECTION_PARAMS) as ParamKey[]).filter((k): k is ReasoningKey => k.startsWith('reasoning.'));

function reasoningValues(params: ProjectionParams): Pick<ParamValues, ReasoningKey> {
  return valuesOf(params);
}

/**
 * The measured fields of a turn the projection reads. A TurnRecord (src/measure/turn-record.ts, which extends this type)
 * has them all; nothing here asks which pipeline produced the turn. Declared here, not picked
 * from TurnRecord, so src/sim does not depend on src/measure (pipelines use the selection model).
 */
export interface ProjectionTurn {
  pipeline: string;
  seed: number;
  taskId: string;
  kind: TaskKind;
  ambiguous: boolean;
  /** 0-based turn index and the task's number of turns. */
  turn: number;
  turns: number;
  promptTokens: number;
  toolTokens: number;
  systemTokens: number;
  historyTokens: number;
  userTokens: number;
  /** Leading tokens identical to the prompt of the task's turn before (0 on its first turn). */
  sharedPrefixTokens: number;
  needed: number;
  neededPresent: number;
  /** Needed tools the model could at least see by name (summary, CLI list...). */
  neededListed: number;
  discoveryCalls: number;
  /** Tools visible by at least their name, and tools whose full definition is in the prompt. */
  listedTools: number;
  fullSchemaTools: number;
  /** How listed-only tools appear (summary lines or CLI list lines). */
  listedForm: ListedForm;
  /** Needed tools the turn's own discovery calls already show the model choosing (B4's --help). */
  neededSelected: number;
}

/**
 * rho as the projection uses it: the measured rho(K) = C_task / (C_task + tool tokens + C_sys)
 * of src/measure/summarize.ts (C_task = history + user message), with the turn's own working
 * content (`reasoning.taskAllowanceTokens`) added to C_task.
 */
export function projectionRho(t: ProjectionTurn, params: ProjectionParams): number {
  const task = t.historyTokens + t.userTokens + reasoningValues(params)['reasoning.taskAllowanceTokens'];
  const denom = task + t.toolTokens + t.systemTokens;
  return denom > 0 ? task / denom : 1;
}

/**
 * The reasoning cliff: a logistic in rho centred on `reasoning.rhoCliff`, rescaled so rho = 1
 * gives 1 and a rho far below the cliff gives `reasoning.floor`.
 */
export function cliffFactor(rho: number, params: ProjectionParams): number {
  const v = reasoningValues(params);
  const c = v['reasoning.rhoCliff'];
  const w = Math.max(1e-9, v['reasoning.cliffWidth']);
  const floor = v['reasoning.floor'];
  const atRho = 1 / (1 + Math.exp(-(rho - c) / w));
  const atOne = 1 / (1 + Math.exp(-(1 - c) / w));
  return floor + (1 - floor) * Math.min(1, atRho / atOne);
}

/** NoLiMa points in log2(tokens), with the base score (relative 1) at 500 tokens. */
const NOLIMA_LOG: readonly (readonly [number, number])[] = [[500, 1] as const, ...NOLIMA_CURVE].map(([t, v]) => [Math.log2(t), v] as const);

/** NoLiMa's relative accuracy at a context length (1 up to 500 tokens; log2-linear between points). */
export function nolimaRelative(tokens: number): number {
  const pts = NOLIMA_LOG;
  if (tokens <= 0) return 1;
  const x = Math.log2(tokens);
  if (x <= pts[0]![0]) return 1;
  // Index reads, not destructuring: this runs for every turn of every parameter set, and each
  // destructured pair allocated.
  for (let i = 1; i < pts.length; i++) {
    const p0 = pts[i - 1]!;
    const p1 = pts[i]!;
    if (x <= p1[0]) return p0[1] + ((p1[1] - p0[1]) * (x - p0[0])) / (p1[0] - p0[0]);
  }
  const a = pts[pts.length - 2]!;
  const b = pts[pts.length - 1]!;
  return Math.max(0, b[1] + ((b[1] - a[1]) / (b[0] - a[0])) * (x - b[0]));
}

/** The long-context length factor: 1 − lengthWeight × (1 − NoLiMa relative accuracy). */
export function lengthFactor(promptTokens: number, params: ProjectionParams): number {
  return 1 - reasoningValues(params)['reasoning.lengthWeight'] * (1 - nolimaRelative(promptTokens));
}

/** Reasoning factor of a turn in [0, 1]: 1 = unimpaired. */
export function reasoningFactor(t: ProjectionTurn, params: ProjectionParams): number {
  return cliffFactor(projectionRho(t, params), params) * lengthFactor(t.promptTokens, params);
}

/** Time to first token of one model call (s). */
export function ttftSeconds(uncachedTokens: number, cachedTokens: number, v: ParamValues): number {
  return (
    v['latency.ttftBaseS'] + (v['latency.ttftPerKUncachedS'] * uncachedTokens) / 1000 + (v['latency.ttftPerKCachedS'] * cachedTokens) / 1000
  );
}

/**
 * The prompt cache of one task session, billed as the provider documents it (the `cache.*` and
 * `price.*` parameters; docs/measurement.md#cost-and-the-prompt-cache). Every call writes its
 * prompt to the cache when it is at least `cache.minPrefixTokens` long (a breakpoint on its last
 * block: Anthropic's automatic caching; OpenAI caches every such prompt), and reads from it the
 * part it shares with the call before, when that call left its prompt there, the shared part
 * reaches the minimum and the cache was last used within `cache.ttlS` (rounded down to
 * `cache.readStepTokens` past the minimum). The rest of the prompt is written. A call reads only
 * what the call before it left: older entries are not looked up. The cache does not know which
 * pipeline sent the prompts, only how long they are and how much of each the one before shares.
 */
export class SessionCache {
  /** When (s) the cache last held the previous call's prompt, written or read; NaN when it holds none. */
  private usedAt = NaN;
  /** Cache tokens read and written by the last call (fields, not a returned object: millions of calls per bench). */
  read = 0;
  written = 0;

  constructor(private readonly values: ParamValues) {}

  /** One call at `atS` seconds into the session, of `promptTokens` of which `sharedTokens` lead the previous call's prompt. */
  call(promptTokens: number, sharedTokens: number, atS: number): void {
    const v = this.values;
    const min = v['cache.minPrefixTokens'];
    const step = Math.max(1, v['cache.readStepTokens']);
    // NaN (nothing held) compares false.
    const live = atS - this.usedAt <= v['cache.ttlS'];
    const shared = Math.min(sharedTokens, promptTokens);
    this.read = live && shared >= min ? min + Math.floor((shared - min) / step) * step : 0;
    const cacheable = promptTokens >= min;
    this.written = cacheable ? promptTokens - this.read : 0;
    this.usedAt = cacheable ? atS : NaN;
  }
}

/** Input cost (USD) of one call of `promptTokens` with this much read from and written to the cache. */
export function inputCostUsd(promptTokens: number, read: number, write: number, v: ParamValues): number {
  const uncached = Math.max(0, promptTokens - read - write);
  return (uncached * v['price.inputPerMTok'] + write * v['price.cacheWritePerMTok'] + read * v['price.cacheReadPerMTok']) / 1e6;
}
