import { describe, expect, it } from 'vitest';
import { DrawCache } from '../../src/sim/projection/draws.ts';
import {
  billedAs,
  PROJECTION_PARAMS,
  pv,
  scaleParam,
  SIMULATION,
  withParam,
  type ParamKey,
  type ProjectionParams,
} from '../../src/sim/projection/params.ts';
import { projectPipeline, type ProjectionResult } from '../../src/sim/projection/project.ts';
import { simulateTask } from '../../src/sim/projection/simulate.ts';
import { Rng } from '../../src/util/rng.ts';
import { task, tasks } from './records.ts';

const P = PROJECTION_PARAMS;

function set(params: ProjectionParams, values: Partial<Record<ParamKey, number>>): ProjectionParams {
  let p = params;
  for (const [k, v] of Object.entries(values) as [ParamKey, number][]) p = withParam(p, k, v);
  return p;
}

/** No way to fail (a tool seen by name only is always called, and right): only the cause under test can fail a task. */
const NO_FAILURES = set(P, {
  'failure.baseErrorPerToolTurn': 0,
  'failure.degradationErrorPerToolTurn': 0,
  'failure.ambiguousFail': 0,
  'failure.blindCallAttempt': 1,
  'failure.blindCallSuccess': 1,
  'failure.gateRecovery': 1,
  'failure.unlistedFail': 0,
  'failure.violationCallPerSchema': 0,
});

const missingFailures = (r: ProjectionResult) => r.failures.byCause['missing tool'] + r.failures.byCause['unrecovered hallucination'];

// A mixed workload: some turns miss a schema, some tasks are ambiguous, long-ish sessions.
const mixed = [
  ...tasks(120, [{ toolTokens: 3000 }], { ambiguousEvery: 10 }),
  ...tasks(60, [
    { toolTokens: 3000 },
    { toolTokens: 3000, present: 0, listed: 1 },
    { toolTokens: 3000, neededTools: [] },
    { toolTokens: 3000 },
  ]).map((r) => ({
    ...r,
    taskId: `m${r.taskId}`,
  })),
];

describe('projectPipeline is a pure function', () => {
  it('gives identical output for identical inputs and seed, and does not touch its input', () => {
    const before = JSON.stringify(mixed);
    const a = projectPipeline(mixed, P, 7);
    const b = projectPipeline(mixed, P, 7);
    expect(b).toEqual(a);
    expect(JSON.stringify(mixed)).toBe(before);
  });

  it('gives the same output with a shared draw cache (a memo only)', () => {
    const cache = new DrawCache();
    projectPipeline(tasks(30, [{ toolTokens: 50_000 }]), P, 7, { draws: cache }); // warm the cache with another pipeline's turns
    expect(projectPipeline(mixed, P, 7, { draws: cache })).toEqual(projectPipeline(mixed, P, 7));
  });

  it('never asks which pipeline produced the turns', () => {
    const a = projectPipeline(
      mixed.map((r) => ({ ...r, pipeline: 'one' })),
      P,
      7,
    );
    const b = projectPipeline(
      mixed.map((r) => ({ ...r, pipeline: 'other' })),
      P,
      7,
    );
    expect({ ...b, pipeline: 'one' }).toEqual(a);
  });

  it('uses three simulation seeds starting at the given seed', () => {
    const r = projectPipeline(mixed, P, 7);
    expect(r.simSeeds).toEqual([7, 8, 9]);
    expect(r.failures.runs).toBe(SIMULATION.seeds);
    expect(r.tasks).toBe(180);
  });
});

describe('a parameter change moves the output the expected way', () => {
  const base = projectPipeline(mixed, P, 42);

  it('higher prices → higher cost per task', () => {
    for (const key of ['price.outputPerMTok', 'price.cacheReadPerMTok', 'price.cacheWritePerMTok'] as const) {
      const moved = projectPipeline(mixed, scaleParam(P, key, 2), 42);
      expect(moved.costPerTask.mean, key).toBeGreaterThan(base.costPerTask.mean);
      expect(moved.successRate.mean, key).toBe(base.successRate.mean);
    }
  });

  it('the uncached input price bills only prompts too short to cache (the others are written or read)', () => {
    const moved = (records: typeof mixed) => projectPipeline(records, scaleParam(P, 'price.inputPerMTok', 2), 42).costPerTask.mean;
    expect(moved(mixed)).toBe(base.costPerTask.mean);
    const short = tasks(20, [{ toolTokens: 300 }, { toolTokens: 300 }]);
    expect(moved(short)).toBeGreaterThan(projectPipeline(short, P, 42).costPerTask.mean);
  });

  it('lower rho (more tool tokens, same tasks) → lower success and quality', () => {
    const heavy = mixed.map((r) => ({
      ...r,
      toolTokens: 45_000,
      promptTokens: r.promptTokens + 42_000,
      sharedPrefixTokens: r.turn > 0 ? r.sharedPrefixTokens + 42_000 : 0,
    }));
    const h = projectPipeline(heavy, P, 42);
    expect(h.meanRho).toBeLessThan(base.meanRho);
    expect(h.successRate.mean).toBeLessThan(base.successRate.mean);
    expect(h.quality.mean.mean).toBeLessThan(base.quality.mean.mean);
    expect(h.failures.byCause['context degradation']).toBeGreaterThan(base.failures.byCause['context degradation']);
  });

  it('a cliff at a higher rho (same turns) → lower success and quality', () => {
    const moved = projectPipeline(mixed, withParam(P, 'reasoning.rhoCliff', 0.7), 42);
    expect(moved.successRate.mean).toBeLessThan(base.successRate.mean);
    expect(moved.quality.mean.mean).toBeLessThan(base.quality.mean.mean);
  });

  it('slower decoding → higher latency', () => {
    const moved = projectPipeline(mixed, scaleParam(P, 'latency.decodeTokensPerS', 0.5), 42);
    expect(moved.p50).toBeGreaterThan(base.p50);
    expect(moved.p95).toBeGreaterThan(base.p95);
    expect(moved.costPerTask.mean).toBe(base.costPerTask.mean);
  });

  it('a larger TTFT slope hurts a long prompt more than a short one', () => {
    const short = tasks(50, [{ toolTokens: 500 }]);
    const long = tasks(50, [{ toolTokens: 50_000 }]);
    const moved = scaleParam(P, 'latency.ttftPerKUncachedS', 2);
    const gain = (recs: typeof short) => projectPipeline(recs, moved, 1).p95 - projectPipeline(recs, P, 1).p95;
    expect(gain(long)).toBeGreaterThan(gain(short));
    expect(gain(short)).toBeGreaterThan(0);
  });

  it('a hallucination gate with recovery → fewer failures from missing tools, at the price of extra calls', () => {
    const missing = tasks(300, [{ present: 0, listed: 1 }]);
    const noGate = projectPipeline(missing, P, 42, { hallucinationGate: false });
    const gate = projectPipeline(missing, P, 42, { hallucinationGate: true });
    expect(missingFailures(gate)).toBeLessThan(missingFailures(noGate));
    expect(gate.successRate.mean).toBeGreaterThan(noGate.successRate.mean);
    expect(gate.extraCallsPerTask).toBeGreaterThan(noGate.extraCallsPerTask);
    const betterRecovery = projectPipeline(missing, withParam(P, 'failure.gateRecovery', 0.95), 42, { hallucinationGate: true });
    expect(missingFailures(betterRecovery)).toBeLessThan(missingFailures(gate));
  });

  it('lower recall of needed schemas → lower success', () => {
    const lowRecall = mixed.map((r) => (r.needed ? { ...r, neededPresent: 0, missingNeeded: true, neededListed: 0 } : r));
    expect(projectPipeline(lowRecall, P, 42).successRate.mean).toBeLessThan(base.successRate.mean);
  });

  it('offered schemas that violate preconditions → more failures', () => {
    const v = projectPipeline(mixed, P, 42, { violations: () => 40 });
    expect(v.failures.byCause['precondition violation']).toBeGreaterThan(0);
    expect(base.failures.byCause['precondition violation']).toBe(0);
    expect(v.successRate.mean).toBeLessThan(base.successRate.mean);
  });

  it('discovery calls cost extra model round trips', () => {
    const plain = tasks(40, [{ toolTokens: 500 }]);
    const discovering = tasks(40, [{ toolTokens: 500, discoveryCalls: 2 }]);
    const a = projectPipeline(plain, P, 3);
    const b = projectPipeline(discovering, P, 3);
    expect(b.modelCallsPerTask - a.modelCallsPerTask).toBeCloseTo(2, 9);
    expect(b.p50).toBeGreaterThan(a.p50);
    expect(b.costPerTask.mean).toBeGreaterThan(a.costPerTask.mean);
  });
});

describe('the simulation records the cause of each failure it draws', () => {
  const n = 50;
  const allCause = (r: ProjectionResult, cause: keyof ProjectionResult['failures']['byCause']) => {
    expect(r.failures.failed).toBe(n * SIMULATION.seeds);
    expect(r.failures.byCause[cause]).toBe(r.failures.failed);
  };

  it('ambiguous query', () => {
    allCause(projectPipeline(tasks(n, [{}], { ambiguous: true }), set(NO_FAILURES, { 'failure.ambiguousFail': 1 }), 1), 'ambiguous query');
  });
  it('missing tool: not visible at all', () => {
    allCause(projectPipeline(tasks(n, [{ present: 0, listed: 0 }]), set(NO_FAILURES, { 'failure.unlistedFail': 1 }), 1), 'missing tool');
  });
  it('missing tool: visible by name, the model gives up', () => {
    allCause(
      projectPipeline(tasks(n, [{ present: 0, listed: 1 }]), set(NO_FAILURES, { 'failure.blindCallAttempt': 0 }), 1),
      'missing tool',
    );
  });
  it('unrecovered hallucination, without and with the gate', () => {
    const recs = tasks(n, [{ present: 0, listed: 1 }]);
    const p = set(NO_FAILURES, { 'failure.blindCallAttempt': 1, 'failure.blindCallSuccess': 0, 'failure.gateRecovery': 0 });
    allCause(projectPipeline(recs, p, 1), 'unrecovered hallucination');
    const gated = projectPipeline(recs, p, 1, { hallucinationGate: true });
    allCause(gated, 'unrecovered hallucination');
    expect(gated.extraCallsPerTask).toBe(1);
  });
  it('precondition violation', () => {
    const p = set(NO_FAILURES, { 'failure.violationCallPerSchema': 1, 'failure.violationRecovery': 0 });
    allCause(projectPipeline(tasks(n, [{}]), p, 1, { violations: () => 1 }), 'precondition violation');
  });
  it('context degradation', () => {
    const p = set(NO_FAILURES, { 'failure.degradationErrorPerToolTurn': 1, 'reasoning.floor': 0, 'reasoning.lengthWeight': 1 });
    const r = projectPipeline(tasks(n, [{ toolTokens: 150_000 }]), p, 1);
    expect(r.failures.byCause['context degradation']).toBe(r.failures.failed);
    expect(r.failures.failed).toBeGreaterThan(0.9 * n * SIMULATION.seeds);
  });
  it('context overflow', () => {
    allCause(projectPipeline(tasks(n, [{ toolTokens: 250_000 }]), NO_FAILURES, 1), 'context overflow');
  });
  it('no failure probability, no failure', () => {
    const r = projectPipeline(mixed, NO_FAILURES, 1);
    expect(r.failures.failed).toBe(0);
    expect(r.successRate).toMatchObject({ mean: 1, low: 1, high: 1 });
  });
});

describe('latency and cost of a hand-computed session', () => {
  // Turn 1: no tool, 10,000 prompt tokens. Turn 2: one tool call, 11,000 tokens, of which the
  // first 8,000 (system text and tools) lead turn 1's prompt too.
  const recs = task('t', [
    { systemTokens: 100, toolTokens: 7900, historyTokens: 0, userTokens: 2000, neededTools: [] },
    { systemTokens: 100, toolTokens: 7900, historyTokens: 1000, userTokens: 2000 },
  ]);
  const v = (k: ParamKey) => pv(P, k);
  const simulate = (records: typeof recs, params: ProjectionParams = P) =>
    simulateTask(records, params, new Rng(1, 'x'), { hallucinationGate: false, violations: () => 0 });

  it('writes each prompt, reads what the call before shared with it', () => {
    expect(recs[1]!.sharedPrefixTokens).toBe(8000);
    const out = simulate(recs);
    const turn1 = (10_000 * v('price.cacheWritePerMTok') + v('output.replyTokens') * v('price.outputPerMTok')) / 1e6;
    // First call: 8,000 read, 3,000 written; second call (the tool result): the same prompt, all read.
    const turn2 =
      (8000 * v('price.cacheReadPerMTok') +
        3000 * v('price.cacheWritePerMTok') +
        11_000 * v('price.cacheReadPerMTok') +
        (v('output.replyTokens') + v('output.toolCallTokens')) * v('price.outputPerMTok')) /
      1e6;
    expect(out.costUsd).toBeCloseTo(turn1 + turn2, 12);
    expect(out.cacheHitShares).toEqual([0, (8000 + 11_000) / (2 * 11_000)]);
    expect(out.modelCalls).toBe(3);

    const lat1 = v('latency.ttftBaseS') + 10 * v('latency.ttftPerKUncachedS') + v('output.replyTokens') / v('latency.decodeTokensPerS');
    const lat2 =
      v('latency.ttftBaseS') +
      3 * v('latency.ttftPerKUncachedS') +
      8 * v('latency.ttftPerKCachedS') +
      v('latency.ttftBaseS') +
      11 * v('latency.ttftPerKCachedS') +
      (v('output.replyTokens') + v('output.toolCallTokens')) / v('latency.decodeTokensPerS');
    expect(out.turnLatencies[0]).toBeCloseTo(lat1, 12);
    expect(out.turnLatencies[1]).toBeCloseTo(lat2, 12);
  });

  it('the cache expires when the next turn comes after the TTL', () => {
    const late = simulate(recs, withParam(P, 'session.turnGapS', v('cache.ttlS') + 1));
    expect(late.cacheHitShares).toEqual([0, 11_000 / (2 * 11_000)]);
    expect(late.costUsd).toBeGreaterThan(simulate(recs).costUsd);
  });

  it('bills the same turns as OpenAI does when asked', () => {
    const openai = billedAs(P, 'openai');
    const out = simulate(recs, openai);
    const o = (k: ParamKey) => pv(openai, k);
    // Read in 128-token steps past 1,024: of 8,000 shared tokens 1,024 + 54 × 128 = 7,936, of the
    // 11,000 re-sent 1,024 + 77 × 128 = 10,880; the rest is written at the input price.
    const turn2 = (7936 + 10_880) * o('price.cacheReadPerMTok') + (3064 + 120) * o('price.inputPerMTok');
    const output = (2 * o('output.replyTokens') + o('output.toolCallTokens')) * o('price.outputPerMTok');
    expect(out.costUsd).toBeCloseTo((10_000 * o('price.inputPerMTok') + turn2 + output) / 1e6, 12);
  });

  it('does not cache a prompt below the minimum, and rewrites a prefix that changed', () => {
    const small = task('s', [
      { systemTokens: 100, toolTokens: 500 },
      { systemTokens: 100, toolTokens: 500 },
    ]);
    expect(simulate(small).cacheHitShares).toEqual([0, 0]);
    // The tools change on turn 2: only the 100-token system text leads both prompts, below the minimum.
    const changing = task('c', [{ toolTokens: 5000 }, { toolTokens: 6000 }]);
    expect(changing[1]!.sharedPrefixTokens).toBe(100);
    // Turn 2's first call writes the new prompt, its second call (the tool result) reads all of it.
    expect(simulate(changing).cacheHitShares[1]).toBeCloseTo(0.5, 12);
  });

  it('P50/P95 are quantiles over every turn of every simulation seed', () => {
    const r = projectPipeline(recs, NO_FAILURES, 1);
    const out = simulateTask(recs, NO_FAILURES, new Rng(1, 'x'), { hallucinationGate: false, violations: () => 0 });
    const [a, b] = out.turnLatencies as [number, number];
    // Six values, three of each: the median is their midpoint; P95 is the larger one.
    expect(r.p50).toBeCloseTo((a + b) / 2, 12);
    expect(r.p95).toBeCloseTo(Math.max(a, b), 12);
  });
});

describe('95% bootstrap intervals on known data', () => {
  it('half the tasks fail for sure: success 0.5 with an interval of about ±1.96·√(0.25/n)', () => {
    const recs = tasks(400, [{}], { ambiguousEvery: 2 });
    const r = projectPipeline(recs, set(NO_FAILURES, { 'failure.ambiguousFail': 1 }), 42);
    expect(r.successRate.mean).toBe(0.5);
    expect(r.successRate.n).toBe(400);
    const half = 1.96 * Math.sqrt(0.25 / 400);
    expect(r.successRate.low).toBeGreaterThan(0.5 - half - 0.01);
    expect(r.successRate.low).toBeLessThan(0.5 - half + 0.01);
    expect(r.successRate.high).toBeGreaterThan(0.5 + half - 0.01);
    expect(r.successRate.high).toBeLessThan(0.5 + half + 0.01);
  });

  it('identical tasks: the cost interval collapses on the mean', () => {
    const r = projectPipeline(tasks(100, [{}, {}]), NO_FAILURES, 42);
    expect(r.costPerTask.low).toBeCloseTo(r.costPerTask.mean, 12);
    expect(r.costPerTask.high).toBeCloseTo(r.costPerTask.mean, 12);
  });

  it('no intervals when bootstrap is off, same means', () => {
    const a = projectPipeline(mixed, P, 5);
    const b = projectPipeline(mixed, P, 5, { bootstrap: false });
    expect(b.successRate.mean).toBe(a.successRate.mean);
    expect(Number.isNaN(b.successRate.low)).toBe(true);
  });
});

describe('quality', () => {
  it('quality figures lie in 1–5 and turn-30 quality is read on tasks of at least 30 turns', () => {
    const long = tasks(
      20,
      Array.from({ length: 32 }, () => ({})),
      { kind: 'long' },
    );
    const short = tasks(20, [{}, {}]);
    const r = projectPipeline([...long, ...short.map((x) => ({ ...x, taskId: `s${x.taskId}` }))], P, 3);
    expect(r.qualityAtTurn.n).toBe(20);
    expect(r.quality.mean.mean).toBeGreaterThanOrEqual(1);
    expect(r.quality.mean.mean).toBeLessThanOrEqual(5);
    expect(r.quality.atLeast4).toBeGreaterThan(0);
    expect(r.quality.sd).toBeGreaterThan(0);
  });

  it('a heavier prompt at turn 30 gives a lower turn-30 score', () => {
    const shape = (tool: number) =>
      tasks(
        40,
        Array.from({ length: 30 }, () => ({ toolTokens: tool })),
        { kind: 'long' },
      );
    const light = projectPipeline(shape(2000), P, 3);
    const heavy = projectPipeline(shape(48_000), P, 3);
    expect(heavy.qualityAtTurn.mean.mean).toBeLessThan(light.qualityAtTurn.mean.mean);
  });
});
