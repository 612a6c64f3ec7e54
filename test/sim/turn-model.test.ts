import { describe, expect, it } from 'vitest';
import {
  NOLIMA_CURVE,
  PROJECTION_PARAMS,
  pv,
  scaleParam,
  valuesOf,
  withParam,
  type ParamKey,
  type ProjectionParams,
} from '../../src/sim/projection/params.ts';
import { judge } from '../../src/sim/projection/simulate.ts';
import {
  cliffFactor,
  lengthFactor,
  nolimaRelative,
  projectionRho,
  REASONING_KEYS,
  reasoningFactor,
  SessionCache,
  ttftSeconds,
} from '../../src/sim/projection/turn-model.ts';
import { task } from './records.ts';

const P = PROJECTION_PARAMS;
const PV = valuesOf(P);

describe('parameters', () => {
  it('every parameter states a unit and a source', () => {
    for (const [key, p] of Object.entries(P)) {
      expect(p.unit.length, key).toBeGreaterThan(3);
      expect(p.source.length, key).toBeGreaterThan(8);
      expect(Number.isFinite(p.value), key).toBe(true);
    }
  });

  it('scaling clamps bounded parameters and copies instead of mutating', () => {
    const moved = scaleParam(P, 'failure.gateRecovery', 1.5);
    expect(moved['failure.gateRecovery'].value).toBe(1);
    expect(P['failure.gateRecovery'].value).toBe(0.7);
    expect(scaleParam(P, 'price.inputPerMTok', 1.5)['price.inputPerMTok'].value).toBeCloseTo(4.5, 12);
  });
});

describe('reasoning model', () => {
  it('rho adds the task allowance to the measured C_task', () => {
    const [r] = task('t', [{ toolTokens: 1000, systemTokens: 100, historyTokens: 500, userTokens: 20 }]);
    const a = pv(P, 'reasoning.taskAllowanceTokens');
    expect(projectionRho(r!, P)).toBeCloseTo((520 + a) / (520 + a + 1100), 12);
  });

  it('the cliff: 1 at rho 1, the floor far below, halfway (up to normalisation) at the midpoint, increasing', () => {
    const floor = pv(P, 'reasoning.floor');
    expect(cliffFactor(1, P)).toBeCloseTo(1, 12);
    expect(cliffFactor(0, P)).toBeCloseTo(floor, 2);
    expect(cliffFactor(pv(P, 'reasoning.rhoCliff'), P)).toBeCloseTo(floor + (1 - floor) * 0.5, 3);
    let prev = -Infinity;
    for (let rho = 0; rho <= 1; rho += 0.01) {
      const f = cliffFactor(rho, P);
      expect(f).toBeGreaterThanOrEqual(prev);
      prev = f;
    }
    expect(cliffFactor(0.2, P) - cliffFactor(0.4, P)).toBeLessThan(-0.5 * (1 - floor));
  });

  it('NoLiMa: 1 at short contexts, the published relative points, decreasing beyond', () => {
    expect(nolimaRelative(300)).toBe(1);
    for (const [tokens, rel] of NOLIMA_CURVE) expect(nolimaRelative(tokens)).toBeCloseTo(rel, 12);
    expect(nolimaRelative(64_000)).toBeLessThan(nolimaRelative(32_000));
    expect(nolimaRelative(10_000_000)).toBe(0);
    expect(lengthFactor(32_000, withParam(P, 'reasoning.lengthWeight', 0))).toBe(1);
  });

  it('judge scores are integers in 1–5, lower with degradation and failure', () => {
    for (const [r, failed, noise] of [
      [1, false, 3],
      [0, true, -3],
      [0.5, false, 0.2],
    ] as const) {
      const s = judge(r, failed, noise, PV);
      expect(Number.isInteger(s)).toBe(true);
      expect(s).toBeGreaterThanOrEqual(1);
      expect(s).toBeLessThanOrEqual(5);
    }
    expect(judge(1, false, 0, PV)).toBe(5);
    expect(judge(0.2, false, 0, PV)).toBeLessThan(judge(0.9, false, 0, PV));
    expect(judge(0.9, true, 0, PV)).toBeLessThan(judge(0.9, false, 0, PV));
  });
});

describe('latency and cache', () => {
  it('TTFT is base + slopes per 1k uncached and cached tokens', () => {
    const v = (k: ParamKey) => pv(P, k);
    expect(ttftSeconds(20_000, 30_000, valuesOf(P))).toBeCloseTo(
      v('latency.ttftBaseS') + 20 * v('latency.ttftPerKUncachedS') + 30 * v('latency.ttftPerKCachedS'),
      12,
    );
    expect(ttftSeconds(50_000, 0, valuesOf(P))).toBeGreaterThan(ttftSeconds(0, 50_000, valuesOf(P)));
  });

  it('the session cache writes, reads while unchanged, rewrites on change, ignores short prefixes', () => {
    const c = new SessionCache(valuesOf(P));
    const call = (prefix: number) => (c.call(prefix), { read: c.read, write: c.written });
    expect(call(5000)).toEqual({ read: 0, write: 5000 });
    expect(call(5000)).toEqual({ read: 5000, write: 0 });
    expect(call(6000)).toEqual({ read: 0, write: 6000 });
    expect(call(500)).toEqual({ read: 0, write: 0 });
  });
});

describe('REASONING_KEYS (the projection memoises reasoning factors and rho by their values)', () => {
  // Turns on both sides of the cliff and both sides of NoLiMa's 500-token knee.
  const turns = task('keys', [
    { toolTokens: 30_000, systemTokens: 500, historyTokens: 2_000, userTokens: 40 },
    { toolTokens: 200, systemTokens: 100, historyTokens: 10, userTokens: 10 },
    { toolTokens: 4_000, systemTokens: 300, historyTokens: 60_000, userTokens: 40 },
  ]);
  const factors = (params: ProjectionParams) => turns.flatMap((t) => [reasoningFactor(t, params), projectionRho(t, params)]);
  const moved = (key: ParamKey) => withParam(P, key, P[key].value * 1.5 + 0.05);

  it('are the reasoning. group of the parameter table', () => {
    expect(REASONING_KEYS.length).toBeGreaterThan(0);
    expect([...REASONING_KEYS]).toEqual((Object.keys(P) as ParamKey[]).filter((k) => k.startsWith('reasoning.')));
  });

  it('hold every parameter the reasoning factor and rho read: moving any other changes neither', () => {
    const base = factors(P);
    const others = (Object.keys(P) as ParamKey[]).filter((k) => !(REASONING_KEYS as readonly string[]).includes(k));
    for (const key of others) expect(factors(moved(key)), key).toEqual(base);
  });

  it('hold only parameters they read: moving each changes at least one turn', () => {
    const base = factors(P);
    for (const key of REASONING_KEYS) expect(factors(moved(key)), key).not.toEqual(base);
  });
});
