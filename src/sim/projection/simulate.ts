import { normalOf, takeUniforms, type Uniforms } from './draws.ts';
import { SIMULATION, valuesOf, type ParamValues, type ProjectionParams } from './params.ts';
import { othersAround, rightPickProbability } from '../selection.ts';
import { inputCostUsd, reasoningFactor, SessionCache, ttftSeconds, type ProjectionTurn } from './turn-model.ts';

/** Why a simulated task failed: the first failure drawn, in the order the checks run. */
export const FAILURE_CAUSES = [
  'ambiguous query',
  'missing tool',
  'unrecovered hallucination',
  'wrong tool selected',
  'precondition violation',
  'context degradation',
  'base model error',
  'context overflow',
] as const;
export type FailureCause = (typeof FAILURE_CAUSES)[number];

/** What the simulation needs to know about the pipeline beyond its measured turns. */
export interface TaskTraits {
  /** Calls to a tool whose schema is not in the prompt are rejected with a structured error. */
  hallucinationGate: boolean;
  /** Full schemas offered on this turn whose preconditions the agent state does not meet. */
  violations: (t: ProjectionTurn) => number;
}

export interface TaskOutcome {
  success: boolean;
  cause: FailureCause | null;
  /** 0-based turn of the first failure. */
  failedAtTurn: number | null;
  /** Judge-like score, an integer 1–5. */
  score: number;
  /** Score at turn SIMULATION.qualityTurn (tasks that long only). */
  scoreAtQualityTurn: number | null;
  turnLatencies: number[];
  costUsd: number;
  /** Per turn: prompt tokens read from the cache / prompt tokens sent, over the turn's calls. */
  cacheHitShares: number[];
  modelCalls: number;
  extraCalls: number;
  meanReasoning: number;
}

/**
 * A task's outcome as simulateTaskInto writes it: one object reused for every task of a
 * projection, its per-turn figures written into the projection's own arrays from `offset`, so
 * no object or array is made per simulated task (a bench run simulates about 1.5 million).
 */
export class TaskOutcomeSink {
  success = false;
  cause: FailureCause | null = null;
  failedAtTurn: number | null = null;
  score = 0;
  scoreAtQualityTurn: number | null = null;
  costUsd = 0;
  modelCalls = 0;
  extraCalls = 0;
  meanReasoning = 0;
  /** Where the next task's first turn goes in `turnLatencies` and `cacheHitShares`. */
  offset = 0;

  constructor(
    /** Per turn: latency (s), and prompt tokens read from the cache / prompt tokens sent over the turn's calls. */
    readonly turnLatencies: Float64Array,
    readonly cacheHitShares: Float64Array,
  ) {}

  /** A failure drawn at `turn`: it becomes the task's cause when it is the first. */
  fail(cause: FailureCause, turn: number): void {
    if (this.cause === null) {
      this.cause = cause;
      this.failedAtTurn = turn;
    }
  }
}

/** How many uniform draws simulating these turns takes (see simulateTask). */
export function drawsPerTask(turns: readonly ProjectionTurn[]): number {
  let draws = 1 + 4;
  for (let index = 0; index < turns.length; index++) draws += 4 + 5 * turns[index]!.needed;
  return draws;
}

/**
 * Simulates one task of measured turns (ordered by turn) with a seeded generator.
 *
 * Every turn draws the same number of random numbers whatever the pipeline (4 per turn, 5 per
 * needed tool, 1 per task for ambiguity, 2 judge draws), so two pipelines simulated with the
 * same generator face the same luck (common random numbers): differences come from their
 * measured turns. Checks on a tool turn, in order (the first failure is the task's cause):
 *  1. context overflow: prompt larger than the window;
 *  2. ambiguity (first tool turn of a task flagged ambiguous);
 *  3. each needed tool whose full schema is absent: visible by name → the model calls it blind
 *     (gate: rejected, one extra call, recovered or "unrecovered hallucination"; no gate: right
 *     or "unrecovered hallucination") or gives up ("missing tool"); not visible at all → "missing tool";
 *     each needed tool whose full schema is present (and whose choice no discovery call of the
 *     turn already made) is picked right with the selection model's probability among the
 *     tools shown (src/sim/selection.ts); a wrong pick costs one extra call and is recovered or
 *     "wrong tool selected";
 *  4. a call to an offered tool whose precondition fails (one extra call; recovered or not);
 *  5. context degradation: probability degradationError × (1 − reasoning factor);
 *  6. base model error.
 * Cost and latency count every model call: one per turn, one more per tool call (the agent
 * reads each result), one per discovery call, one per gate rejection or precondition error.
 * Each call re-sends the turn's measured prompt (an upper bound for calls inside a turn).
 */
export function simulateTask(
  turns: readonly ProjectionTurn[],
  params: ProjectionParams,
  rng: Uniforms,
  traits: TaskTraits,
  /** The turns' reasoning factors when already computed (they depend on the turn and the parameters only). */
  reasoning: readonly number[] = turns.map((t) => reasoningFactor(t, params)),
): TaskOutcome {
  const out = new TaskOutcomeSink(new Float64Array(turns.length), new Float64Array(turns.length));
  const offered = turns.map((t) => traits.violations(t));
  simulateTaskInto(turns, params, takeUniforms(rng, drawsPerTask(turns)), traits.hallucinationGate, offered, reasoning, out);
  return {
    success: out.success,
    cause: out.cause,
    failedAtTurn: out.failedAtTurn,
    score: out.score,
    scoreAtQualityTurn: out.scoreAtQualityTurn,
    costUsd: out.costUsd,
    modelCalls: out.modelCalls,
    extraCalls: out.extraCalls,
    meanReasoning: out.meanReasoning,
    turnLatencies: Array.from(out.turnLatencies),
    cacheHitShares: Array.from(out.cacheHitShares),
  };
}

/**
 * simulateTask into a reused sink: `u` holds the task's draws from its start (at least
 * drawsPerTask(turns) of them; it may be longer), `offered` each turn's TaskTraits.violations,
 * and the per-turn figures go to the sink's arrays from `out.offset`, which moves past them.
 */
export function simulateTaskInto(
  turns: readonly ProjectionTurn[],
  params: ProjectionParams,
  u: Float64Array,
  hallucinationGate: boolean,
  offered: ArrayLike<number>,
  reasoning: readonly number[],
  out: TaskOutcomeSink,
): void {
  const v = valuesOf(params);
  const cache = new SessionCache(v);
  // The first failure drawn decides the outcome (out.fail keeps only the first).
  out.cause = null;
  out.failedAtTurn = null;
  let k = 0;

  const uAmbiguous = u[k++]!;
  let sawToolTurn = false;
  let reasoningSum = 0;
  let reasoningAtQualityTurn: number | null = null;
  let costUsd = 0;
  let modelCalls = 0;
  let extraCalls = 0;
  // The session's clock (s): when the next model call starts.
  let clock = 0;
  const latencies = out.turnLatencies;
  const cacheShares = out.cacheHitShares;
  let at = out.offset;

  for (let index = 0; index < turns.length; index++) {
    const t = turns[index]!;
    const r = reasoning[index]!;
    reasoningSum += r;
    if (t.turn === SIMULATION.qualityTurn - 1) reasoningAtQualityTurn = r;
    let extra = 0;

    if (t.promptTokens > v['context.windowTokens']) out.fail('context overflow', t.turn);
    if (t.needed > 0) {
      if (!sawToolTurn && t.ambiguous && uAmbiguous < v['failure.ambiguousFail']) out.fail('ambiguous query', t.turn);
      sawToolTurn = true;
      extra = toolTurnChecks(t, u, k, r, offered[index]!, hallucinationGate, v, out);
    }
    k += 4 + 5 * t.needed;

    // Latency and cost of the turn's model calls. The first shares the measured prefix with the
    // turn before; the others re-send the turn's prompt, so they share all of it.
    const calls = 1 + t.needed + t.discoveryCalls + extra;
    const outputTokens =
      v['output.replyTokens'] + (t.needed + extra) * v['output.toolCallTokens'] + t.discoveryCalls * v['output.discoveryCallTokens'];
    let ttft = 0;
    let read = 0;
    for (let c = 0; c < calls; c++) {
      cache.call(t.promptTokens, c === 0 ? t.sharedPrefixTokens : t.promptTokens, clock);
      read += cache.read;
      const callTtft = ttftSeconds(t.promptTokens - cache.read, cache.read, v);
      ttft += callTtft;
      clock += callTtft;
      costUsd += inputCostUsd(t.promptTokens, cache.read, cache.written, v);
    }
    costUsd += (outputTokens * v['price.outputPerMTok']) / 1e6;
    const decode = outputTokens / v['latency.decodeTokensPerS'];
    clock += decode + v['session.turnGapS'];
    latencies[at] = ttft + decode;
    cacheShares[at++] = t.promptTokens > 0 ? read / (calls * t.promptTokens) : 0;
    modelCalls += calls;
    extraCalls += extra;
  }

  const noiseTask = normalOf(u[k++]!, u[k++]!);
  const noiseAtTurn = normalOf(u[k++]!, u[k++]!);
  const meanReasoning = turns.length ? reasoningSum / turns.length : 1;
  const score = judge(meanReasoning, out.cause !== null, noiseTask, v);
  const failedByQualityTurn = out.failedAtTurn !== null && out.failedAtTurn <= SIMULATION.qualityTurn - 1;
  const scoreAtQualityTurn = reasoningAtQualityTurn === null ? null : judge(reasoningAtQualityTurn, failedByQualityTurn, noiseAtTurn, v);

  out.success = out.cause === null;
  out.score = score;
  out.scoreAtQualityTurn = scoreAtQualityTurn;
  out.costUsd = costUsd;
  out.modelCalls = modelCalls;
  out.extraCalls = extraCalls;
  out.meanReasoning = meanReasoning;
  out.offset = at;
}

/**
 * Checks 3–6 of a tool turn (see simulateTask), drawn from the turn's draws at `u[k]`: 4 for the
 * turn, then 5 per needed tool. Failures go to `out`; returns the extra model calls they cost.
 */
function toolTurnChecks(
  t: ProjectionTurn,
  u: Float64Array,
  k: number,
  reasoning: number,
  offeredViolations: number,
  hallucinationGate: boolean,
  v: ParamValues,
  out: TaskOutcomeSink,
): number {
  const uBase = u[k++]!;
  const uDegradation = u[k++]!;
  const uViolation = u[k++]!;
  const uViolationRecovery = u[k++]!;
  let extra = 0;
  const present = Math.min(t.needed, t.neededPresent);
  const listedOnly = Math.max(0, Math.min(t.needed, t.neededListed) - present);
  const selected = Math.min(present, t.neededSelected);
  const pRight = present > selected ? rightPickProbability(othersAround(t.fullSchemaTools, t.listedTools, t.listedForm), v) : 1;
  for (let i = 0; i < t.needed; i++) {
    const uAttempt = u[k++]!;
    const uOutcome = u[k++]!;
    const uUnlisted = u[k++]!;
    const uSelect = u[k++]!;
    const uSelectRecovery = u[k++]!;
    if (i < selected) continue;
    if (i < present) {
      if (uSelect >= pRight) {
        extra++;
        if (uSelectRecovery >= v['selection.wrongRecovery']) out.fail('wrong tool selected', t.turn);
      }
      continue;
    }
    if (i < present + listedOnly) {
      if (uAttempt < v['failure.blindCallAttempt']) {
        if (hallucinationGate) {
          extra++;
          if (uOutcome >= v['failure.gateRecovery']) out.fail('unrecovered hallucination', t.turn);
        } else if (uOutcome >= v['failure.blindCallSuccess']) {
          out.fail('unrecovered hallucination', t.turn);
        }
      } else {
        out.fail('missing tool', t.turn);
      }
    } else if (uUnlisted < v['failure.unlistedFail']) {
      out.fail('missing tool', t.turn);
    }
  }

  const pViolation = 1 - Math.pow(1 - v['failure.violationCallPerSchema'], offeredViolations);
  if (uViolation < pViolation) {
    extra++;
    if (uViolationRecovery >= v['failure.violationRecovery']) out.fail('precondition violation', t.turn);
  }
  if (uDegradation < v['failure.degradationErrorPerToolTurn'] * (1 - reasoning)) out.fail('context degradation', t.turn);
  if (uBase < v['failure.baseErrorPerToolTurn']) out.fail('base model error', t.turn);
  return extra;
}

/** Judge-like score: 5 minus the degradation and failure drops plus judge noise, rounded to 1–5. */
export function judge(reasoning: number, failed: boolean, noise: number, v: ParamValues): number {
  const latent =
    5 - v['quality.degradationDrop'] * (1 - reasoning) - (failed ? v['quality.failureDrop'] : 0) + v['quality.judgeNoiseSd'] * noise;
  return Math.min(5, Math.max(1, Math.round(latent)));
}
