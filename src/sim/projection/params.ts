/**
 * EVERY parameter of the projection layer, in one place, each with its unit and its source.
 *
 * The projection turns MEASURED per-turn token counts (TurnRecords) into PROJECTED task
 * success, latency, cost and judge-like quality. Nothing here is a figure from the Tool
 * Attention paper's results: sources are price lists, latency/throughput measurements,
 * long-context studies, or "assumption" (said plainly). Change a value here and every
 * projected table follows; the sensitivity table moves each key parameter ±50%.
 */

import { cached, runCache } from '../../util/run-scope.ts';

export interface Param {
  value: number;
  unit: string;
  /** Where the value comes from: a price list, a published study, or "assumption: ...". */
  source: string;
  /** Upper bound when the sensitivity analysis scales the value (1 for probabilities and shares). */
  max?: number;
}

/** The model whose list prices and speed the projection uses. */
export const PROJECTION_MODEL = {
  name: 'Claude Sonnet 4.5',
  id: 'claude-sonnet-4-5-20250929',
  /** Date of the price list used. */
  priceListDate:
    '2025-09-29 (launch list price; Sonnet 4.6 was listed at the same rates in April 2026; later copies of the pricing page list a newer Sonnet at $2/$10, within the ±50% sensitivity)',
  priceListUrl: 'https://platform.claude.com/docs/en/about-claude/pricing',
} as const;

const ANTHROPIC_PRICES = `Anthropic list price for ${PROJECTION_MODEL.name} (${PROJECTION_MODEL.id}), ${PROJECTION_MODEL.priceListUrl}, as of ${PROJECTION_MODEL.priceListDate}`;

/**
 * The published figure the selection model's confusion constant is anchored to, and what we
 * had to assume to use it. Anthropic's tool-search post (Nov 2025) reports Opus 4.5 choosing
 * the right tool 79.5% of the time with every tool definition loaded (88.1% with deferred
 * loading); it does not state the tool count of that evaluation. We assume the 58-tool,
 * five-server setup the same post uses for its token figure (~55k tokens).
 */
export const SELECTION_ANCHOR = {
  accuracy: 0.795,
  /** Assumed tools in view (all as full schemas) when the 79.5% was measured. */
  tools: 58,
  source:
    'Anthropic, "Introducing advanced tool use" (tool search tool, Nov 2025): Opus 4.5 tool-selection accuracy 79.5% with all tools loaded → 88.1% with tool search; tool count of that eval assumed = 58 (the five-server example of the same post)',
} as const;

/** c in P(right) = 1 / (1 + c · Σ weights of the other tools shown), solved from the anchor. */
export function anchoredConfusion(accuracy: number = SELECTION_ANCHOR.accuracy, tools: number = SELECTION_ANCHOR.tools): number {
  return (1 / accuracy - 1) / (tools - 1);
}

/**
 * `search.knowledge`, fitted by the search-calibration study's grid search on its calibration
 * figures (src/studies/search-calibration/figures.ts) over the LiveMCPBench development half
 * only; the study refits it on every run and prints both, and a test checks they agree.
 */
export const SEARCH_KNOWLEDGE_FIT = {
  value: 0.3,
  source:
    "fitted (grid step 0.05) to the calibration figures of the search-calibration study (Arcade's BM25 64% of tasks, LiveMCPBench's logged first search 32.7% of needed tools), on the LiveMCPBench development half; the other published figures are validation",
} as const;

/** The parameters a provider's bill sets: list prices and how its prompt cache works (./turn-model.ts, SessionCache). */
export type BillingKey =
  | 'price.inputPerMTok'
  | 'price.outputPerMTok'
  | 'price.cacheWritePerMTok'
  | 'price.cacheReadPerMTok'
  | 'cache.minPrefixTokens'
  | 'cache.readStepTokens'
  | 'cache.ttlS';

export type Provider = 'anthropic' | 'openai';

const ANTHROPIC_CACHE_DOCS = 'Anthropic prompt-caching documentation, https://platform.claude.com/docs/en/build-with-claude/prompt-caching';
const OPENAI_CACHE_DOCS = 'OpenAI prompt-caching guide, https://developers.openai.com/api/docs/guides/prompt-caching';
const OPENAI_MODEL = 'GPT-5.4 (the first model with tool_search)';
const OPENAI_PRICES = `OpenAI list price for ${OPENAI_MODEL}, https://developers.openai.com/api/docs/pricing, as copied in adk-model's pricing table (March 2026); not read on the page itself`;

/**
 * Each provider's bill, with sources (docs/reference/prompt-caching-billing.md). The projection
 * bills every pipeline alike with `anthropic` (its model is Claude); `billedAs` swaps in another.
 */
export const BILLING = {
  anthropic: {
    label: `Anthropic, ${PROJECTION_MODEL.name}`,
    params: {
      'price.inputPerMTok': { value: 3.0, unit: 'USD per million uncached input tokens', source: ANTHROPIC_PRICES },
      'price.outputPerMTok': { value: 15.0, unit: 'USD per million output tokens', source: ANTHROPIC_PRICES },
      'price.cacheWritePerMTok': {
        value: 3.75,
        unit: 'USD per million tokens written to the 5-minute prompt cache',
        source: `${ANTHROPIC_PRICES} (1.25× input)`,
      },
      'price.cacheReadPerMTok': {
        value: 0.3,
        unit: 'USD per million tokens read from the prompt cache',
        source: `${ANTHROPIC_PRICES} (0.1× input)`,
      },
      'cache.minPrefixTokens': {
        value: 1024,
        unit: 'tokens (a shorter prompt is neither written to nor read from the cache)',
        source: `${ANTHROPIC_CACHE_DOCS}: minimum cacheable prompt length 1,024 tokens for Claude Sonnet 4.5 (4,096 for Opus 4.5 and Haiku 4.5)`,
      },
      'cache.readStepTokens': {
        value: 1,
        unit: 'tokens; a cache read is rounded down to the minimum plus a multiple of this',
        source: `${ANTHROPIC_CACHE_DOCS}: a hit reads the whole prefix up to a cache breakpoint (a block boundary), with no rounding`,
      },
      'cache.ttlS': {
        value: 300,
        unit: 's a cached prefix lives after it was last written or read',
        source: `${ANTHROPIC_CACHE_DOCS}: default lifetime 5 minutes, refreshed at no cost each time the cached content is used`,
      },
    },
  },
  openai: {
    label: `OpenAI, ${OPENAI_MODEL}`,
    params: {
      'price.inputPerMTok': { value: 2.5, unit: 'USD per million uncached input tokens', source: OPENAI_PRICES },
      'price.outputPerMTok': { value: 15.0, unit: 'USD per million output tokens', source: OPENAI_PRICES },
      'price.cacheWritePerMTok': {
        value: 2.5,
        unit: 'USD per million tokens written to the prompt cache',
        source: `${OPENAI_CACHE_DOCS}: no fee for cache writes on models before the GPT-5.6 family (a written token costs the input price)`,
      },
      'price.cacheReadPerMTok': { value: 0.25, unit: 'USD per million cached input tokens', source: `${OPENAI_PRICES} (0.1× input)` },
      'cache.minPrefixTokens': {
        value: 1024,
        unit: 'tokens (a shorter prompt is neither written to nor read from the cache)',
        source: `${OPENAI_CACHE_DOCS}: caching is enabled for prompts of 1,024 tokens or more`,
      },
      'cache.readStepTokens': {
        value: 128,
        unit: 'tokens; a cache read is rounded down to the minimum plus a multiple of this',
        source: `${OPENAI_CACHE_DOCS} and OpenAI's "Prompt Caching 201" cookbook: hits up to the first mismatched token, in 128-token increments`,
      },
      'cache.ttlS': {
        value: 300,
        unit: 's a cached prefix lives after it was last used',
        source: `${OPENAI_CACHE_DOCS}: in-memory retention, cleared within 5 to 10 minutes of inactivity (the lower end taken) and always within one hour`,
      },
    },
  },
} as const satisfies Record<Provider, { label: string; params: Record<BillingKey, Param> }>;

export const PROJECTION_PARAMS = {
  // ---- prices and the prompt cache (the projection bills as Anthropic does: BILLING.anthropic) ----
  ...BILLING.anthropic.params,
  'session.turnGapS': {
    value: 30,
    unit: "s between a turn's last model call and the next turn's first (the user reading and typing); tool calls are taken to return at once",
    source:
      'assumption: a user answering within the minute; the cache expires only past the TTL (5 minutes), so any gap under about 4 minutes bills the same',
  },

  // ---- latency ------------------------------------------------------------------------
  'latency.ttftBaseS': {
    value: 1.7,
    unit: 's (time to first token at an empty prompt)',
    source:
      'Artificial Analysis median TTFT for Claude Sonnet 4.5 on the Anthropic API, 1.80 s at its standard short prompt (as quoted Nov 2025), minus ≈0.1 s of prefill for that prompt (≈1k tokens assumed)',
  },
  'latency.ttftPerKUncachedS': {
    value: 0.098,
    unit: 's per 1,000 uncached prompt tokens',
    source:
      'Anthropic prompt-caching announcement (Aug 2024, Claude 3.5 Sonnet): a 100k-token prompt took 11.5 s uncached; slope = (11.5 s − base) / 100k. Older model: an order of magnitude, not a fit',
  },
  'latency.ttftPerKCachedS': {
    value: 0.007,
    unit: 's per 1,000 prompt tokens read from the cache',
    source: 'same announcement: the 100k-token prompt took 2.4 s when cached; slope = (2.4 s − base) / 100k',
  },
  'latency.decodeTokensPerS': {
    value: 63,
    unit: 'output tokens per second',
    source: 'Artificial Analysis median output speed for Claude Sonnet 4.5 on the Anthropic API, 63 tokens/s (as quoted Nov 2025)',
  },

  // ---- output per turn ----------------------------------------------------------------
  'output.replyTokens': {
    value: 150,
    unit: 'output tokens of the final reply of a turn',
    source: 'assumption: "report what you found in a few sentences" (the harness system prompt) ≈ 100–200 tokens',
  },
  'output.toolCallTokens': {
    value: 50,
    unit: 'output tokens per tool call (tool name + JSON arguments)',
    source: 'assumption: a tool_use block with a handful of arguments',
  },
  'output.discoveryCallTokens': {
    value: 30,
    unit: 'output tokens per discovery call (e.g. `cli --help server/tool`)',
    source: 'assumption: one short command line with its wrapper',
  },

  // ---- context and reasoning degradation --------------------------------------------------
  'context.windowTokens': {
    value: 200_000,
    unit: 'tokens; a prompt larger than this fails the turn (context overflow)',
    source: `${PROJECTION_MODEL.name} model page: 200K-token context window (standard tier)`,
  },
  'reasoning.taskAllowanceTokens': {
    value: 4000,
    unit: "tokens added to C_task in the projection's rho",
    source:
      "assumption: the paper's C_task (§3.3) counts the turn's own tool outputs and the model's reasoning, which the measured prompt does not yet hold; without it rho ≈ 0 on every first turn whatever the tool load",
  },
  'reasoning.rhoCliff': {
    value: 0.3,
    unit: 'rho at the midpoint of the logistic reasoning cliff',
    source: 'Tool Attention paper §3.3 (citing a practitioner report [22] and NoLiMa [19]): reasoning collapses when rho falls below ≈ 0.3',
    max: 1,
  },
  'reasoning.cliffWidth': {
    value: 0.05,
    unit: 'rho (logistic scale: the cliff spans ≈ ±2 widths)',
    source: 'assumption: a "cliff", i.e. most of the drop within ±0.1 of the midpoint',
  },
  'reasoning.floor': {
    value: 0.5,
    unit: 'share of reasoning ability left far below the cliff',
    source: 'assumption: degraded, not gone (models "hallucinate arguments, confuse parameters", §3.3)',
    max: 1,
  },
  'reasoning.lengthWeight': {
    value: 0.5,
    unit: 'share of the NoLiMa long-context loss applied (0 = no length effect)',
    source:
      "assumption: picking a tool whose schema is in plain sight is easier than NoLiMa's latent-association retrieval, so only half its relative loss applies (curve: NOLIMA_CURVE below)",
    max: 1,
  },

  // ---- failures (probabilities; per tool-needing turn unless stated) -----------------------
  'failure.baseErrorPerToolTurn': {
    value: 0.01,
    unit: 'probability a tool turn fails with every needed schema present and no degradation',
    source: 'assumption: a frontier model picks and fills a well-described tool correctly ~99% of the time',
    max: 1,
  },
  'failure.degradationErrorPerToolTurn': {
    value: 0.15,
    unit: 'probability a tool turn fails unrecoverably at total reasoning loss (scaled by 1 − reasoning factor)',
    source: 'assumption',
    max: 1,
  },
  'failure.ambiguousFail': {
    value: 0.35,
    unit: 'probability an ambiguous task fails (clarification loop judged a failure, or wrong similar tool)',
    source: 'assumption (the task generator flags deliberately vague requests)',
    max: 1,
  },
  'failure.blindCallAttempt': {
    value: 0.6,
    unit: 'probability the model calls a needed tool it sees only by name (summary, CLI list) instead of giving up',
    source: 'assumption (the system prompt tells it not to guess; models often do anyway)',
    max: 1,
  },
  'failure.blindCallSuccess': {
    value: 0.35,
    unit: 'probability a call made without the schema has right arguments (no gate)',
    source: 'assumption',
    max: 1,
  },
  'failure.gateRecovery': {
    value: 0.7,
    unit: 'probability the model recovers after the hallucination gate rejects a call (re-asks or retries with the tool promoted) and completes the step; costs one extra model call',
    source: 'assumption (the paper reports 78% retry + 22% clarification from its own simulation, not a live measurement; not used)',
    max: 1,
  },
  'failure.unlistedFail': {
    value: 0.9,
    unit: 'probability a turn fails when a needed tool is not visible at all (not even by name)',
    source: 'assumption: the model cannot call what it cannot see; sometimes another tool does the job',
    max: 1,
  },
  'failure.violationCallPerSchema': {
    value: 0.002,
    unit: 'probability per offered schema whose precondition fails that the model calls it on a tool turn',
    source: 'assumption (drives the value of precondition gating)',
    max: 1,
  },
  'failure.violationRecovery': {
    value: 0.5,
    unit: 'probability the model recovers after a precondition error (auth/state); costs one extra model call',
    source: 'assumption',
    max: 1,
  },

  // ---- tool selection among the tools shown (src/sim/selection.ts) --------------------------
  'selection.confusionPerSchema': {
    value: anchoredConfusion(),
    unit: 'c in P(right tool) = 1 / (1 + c · Σ form weight of every other tool shown); per other full schema',
    source: `solved from ${SELECTION_ANCHOR.source}: c = (1/${SELECTION_ANCHOR.accuracy} − 1) / (${SELECTION_ANCHOR.tools} − 1); cross-checks in projection-selection-model`,
  },
  'selection.weightSummary': {
    value: 0.5,
    unit: 'weight of another tool shown only as a one-line summary (a full schema weighs 1)',
    source:
      'assumption: a ≤ 60-token intent summary is a smaller distractor than a ~400-token schema but still names what the tool does; no published per-form figure found',
    max: 1,
  },
  'selection.weightCliLine': {
    value: 0.75,
    unit: 'weight of another tool shown only as a CLI --list line (id + first 70 characters of its description)',
    source:
      'assumption: a line cut mid-word after 70 characters tells similar tools apart less well than an intent summary, so it confuses more than one (0.5) and less than a schema (1)',
    max: 1,
  },
  'selection.wrongRecovery': {
    value: 0.5,
    unit: 'probability the model notices a wrong tool pick (unexpected result or error) and calls the right one; costs one extra model call',
    source: 'assumption (no live measurement of recovery from a wrong pick found)',
    max: 1,
  },

  // ---- B4 discovery policy (src/pipelines/b4-cli-lazy/discovery.ts) -------------------------
  'discovery.secondLook': {
    value: 0.7,
    unit: 'probability the model runs another --help after a --help showed it the wrong tool (else it gives up on that tool)',
    source: 'assumption (the Tool Attention paper says B4 pays for running --help in the wrong order; it gives no rate)',
    max: 1,
  },
  'discovery.maxHelpAttempts': {
    value: 3,
    unit: '--help calls at most per needed tool before the model gives up looking',
    source: 'assumption',
  },

  // ---- the searching model (src/sim/search-model.ts) ----------------------------------------
  'search.knowledge': {
    value: SEARCH_KNOWLEDGE_FIT.value,
    unit: "probability that a search phrases the capability in the needed tool's own vocabulary (else from the request's words alone)",
    source: SEARCH_KNOWLEDGE_FIT.source,
    max: 1,
  },
  'search.attemptsPerCapability': {
    value: 2,
    unit: 'searches at most per capability (the first and one more when nothing fitting came back)',
    source:
      "assumption: the providers' pages say the model may search again when a search finds nothing fitting and give no count; LiveMCPBench's logged agent ran about three searches per task",
  },
  'search.maxPerTurn': {
    value: 5,
    unit: 'searches at most per turn',
    source: 'assumption: a cap on a turn that needs many tools (LiveMCPBench development requests need 2.7 on average, at most 7)',
  },

  // ---- judge-like quality (1–5) ---------------------------------------------------------
  'quality.degradationDrop': {
    value: 2.5,
    unit: 'judge points lost at total reasoning loss (scaled by 1 − mean reasoning factor)',
    source: 'assumption',
  },
  'quality.failureDrop': {
    value: 1.5,
    unit: 'judge points lost when the task failed',
    source: 'assumption',
  },
  'quality.judgeNoiseSd': {
    value: 0.6,
    unit: "SD of the judge's noise (points), before rounding to an integer 1–5",
    source: 'assumption (LLM judges disagree with themselves by about half a point)',
  },
} as const satisfies Record<string, Param>;

export type ParamKey = keyof typeof PROJECTION_PARAMS;
export type ProjectionParams = { readonly [K in ParamKey]: Param };

/**
 * NoLiMa (Modarressi et al., ICML 2025, arXiv 2502.05167), GPT-4o: accuracy relative to its
 * short-context base score 99.3 at 1K/2K/4K/8K/16K/32K tokens (98.1, 98.0, 95.7, 89.2, 81.6,
 * 69.7). Interpolated linearly in log2(tokens); beyond 32K the last segment's slope continues,
 * floored at 0.
 */
export const NOLIMA_CURVE: readonly (readonly [tokens: number, relative: number])[] = [
  [1000, 98.1 / 99.3],
  [2000, 98.0 / 99.3],
  [4000, 95.7 / 99.3],
  [8000, 89.2 / 99.3],
  [16000, 81.6 / 99.3],
  [32000, 69.7 / 99.3],
];

/** Simulation settings (not model parameters). */
export const SIMULATION = {
  /** Seeds of the simulation: the study seed and the next two (paper: mean of 3 seeds). */
  seeds: 3,
  bootstrapResamples: 1000,
  /** The turn (1-based) at which the long-task quality is read. */
  qualityTurn: 30,
  /** Judge scores at or above this count as "good" (Table 4's "% ≥ 4"). */
  goodScore: 4,
} as const;

/**
 * Key parameters the sensitivity table moves by ±50%. The prices are the cache's: billed as
 * Anthropic bills, every input token of a prompt long enough to cache is written or read.
 */
export const SENSITIVITY_KEYS: readonly ParamKey[] = [
  'price.cacheWritePerMTok',
  'price.outputPerMTok',
  'price.cacheReadPerMTok',
  'latency.ttftBaseS',
  'latency.ttftPerKUncachedS',
  'latency.decodeTokensPerS',
  'output.replyTokens',
  'reasoning.taskAllowanceTokens',
  'reasoning.rhoCliff',
  'reasoning.floor',
  'reasoning.lengthWeight',
  'failure.degradationErrorPerToolTurn',
  'failure.baseErrorPerToolTurn',
  'failure.ambiguousFail',
  'failure.blindCallAttempt',
  'failure.blindCallSuccess',
  'failure.gateRecovery',
  'failure.unlistedFail',
  'failure.violationCallPerSchema',
  'quality.degradationDrop',
  'selection.confusionPerSchema',
  'selection.weightSummary',
  'selection.weightCliLine',
  'selection.wrongRecovery',
];

/** Value of a parameter. */
export function pv(params: ProjectionParams, key: ParamKey): number {
  return params[key].value;
}

export type ParamValues = { readonly [K in ParamKey]: number };

const VALUES = runCache('parameter values by parameter object, and the last asked', () => ({
  byParams: new WeakMap<ProjectionParams, ParamValues>(),
  last: undefined as { params: ProjectionParams; values: ParamValues } | undefined,
}));

/** All values as a plain record (memoised per parameter object; parameter objects are never mutated). */
export function valuesOf(params: ProjectionParams): ParamValues {
  const memo = cached(VALUES);
  // The last answer first: the simulation asks about the same parameters many times in a row.
  if (memo.last?.params === params) return memo.last.values;
  let v = memo.byParams.get(params);
  if (!v) {
    v = Object.fromEntries((Object.keys(params) as ParamKey[]).map((k) => [k, params[k].value])) as ParamValues;
    memo.byParams.set(params, v);
  }
  memo.last = { params, values: v };
  return v;
}

/** A copy of the parameters billed as `provider` bills (its prices and cache rules; every other parameter kept). */
export function billedAs(params: ProjectionParams, provider: Provider): ProjectionParams {
  return { ...params, ...BILLING[provider].params };
}

/** A copy of the parameters with one value replaced. */
export function withParam(params: ProjectionParams, key: ParamKey, value: number): ProjectionParams {
  return { ...params, [key]: { ...params[key], value } };
}

/** A copy with one value scaled by `factor` (clamped to the parameter's `max` when it has one). */
export function scaleParam(params: ProjectionParams, key: ParamKey, factor: number): ProjectionParams {
  const p: Param = params[key];
  const v = p.value * factor;
  return withParam(params, key, p.max !== undefined ? Math.min(p.max, v) : v);
}
