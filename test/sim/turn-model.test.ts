import { describe, expect, it } from 'vitest';
import {
  BILLING,
  billedAs,
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

  const cacheOf = (params: ProjectionParams) => {
    const c = new SessionCache(valuesOf(params));
    return (prompt: number, shared: number, atS: number) => (c.call(prompt, shared, atS), { read: c.read, write: c.written });
  };

  it('a prompt that grows by appending reads what the call before wrote, and writes the rest', () => {
    const call = cacheOf(P);
    expect(call(5000, 0, 0)).toEqual({ read: 0, write: 5000 });
    // The next prompt keeps the 5,000 tokens before and appends 800.
    expect(call(5800, 5000, 10)).toEqual({ read: 5000, write: 800 });
    expect(call(5800, 5800, 20)).toEqual({ read: 5800, write: 0 });
  });

  it('a changed early section breaks the prefix: only what leads it is read', () => {
    const call = cacheOf(P);
    call(9000, 0, 0);
    // The tool list after a 1,500-token system text changed: 1,500 tokens still lead both prompts.
    expect(call(9500, 1500, 10)).toEqual({ read: 1500, write: 8000 });
    // Changed right after a short system text: what is shared falls below the minimum.
    expect(call(9500, 300, 20)).toEqual({ read: 0, write: 9500 });
  });

  it('below the minimum cacheable length nothing is written or read', () => {
    const min = pv(P, 'cache.minPrefixTokens');
    const call = cacheOf(P);
    expect(call(min - 1, 0, 0)).toEqual({ read: 0, write: 0 });
    expect(call(min - 1, min - 1, 1)).toEqual({ read: 0, write: 0 });
    // The first prompt long enough is written, and only then read.
    expect(call(min + 100, min - 1, 2)).toEqual({ read: 0, write: min + 100 });
    expect(call(min + 100, min + 100, 3)).toEqual({ read: min + 100, write: 0 });
  });

  it('expires after the TTL, counted from the last write or read', () => {
    const ttl = pv(P, 'cache.ttlS');
    const call = cacheOf(P);
    call(5000, 0, 0);
    // Each use refreshes the lifetime: a read just inside it ...
    expect(call(5000, 5000, ttl).read).toBe(5000);
    expect(call(5000, 5000, 2 * ttl).read).toBe(5000);
    // ... and a call after it rewrites the whole prompt.
    expect(call(5000, 5000, 3 * ttl + 1)).toEqual({ read: 0, write: 5000 });
  });

  it("OpenAI's bill: reads in 128-token steps past the minimum, writes at the input price", () => {
    const openai = billedAs(P, 'openai');
    const call = cacheOf(openai);
    call(5000, 0, 0);
    // 1,024 + 128 × 15 = 2,944 of the 3,000 shared tokens.
    expect(call(5200, 3000, 1)).toEqual({ read: 2944, write: 5200 - 2944 });
    expect(pv(openai, 'price.cacheWritePerMTok')).toBe(pv(openai, 'price.inputPerMTok'));
    expect(pv(P, 'price.cacheWritePerMTok')).toBeGreaterThan(pv(P, 'price.inputPerMTok'));
    // Every other parameter is kept.
    expect(pv(openai, 'reasoning.rhoCliff')).toBe(pv(P, 'reasoning.rhoCliff'));
  });

  it('every provider sets every billing parameter with a unit and a source', () => {
    for (const [provider, bill] of Object.entries(BILLING)) {
      expect(Object.keys(bill.params).sort(), provider).toEqual(Object.keys(BILLING.anthropic.params).sort());
      for (const [key, p] of Object.entries(bill.params)) expect(p.source.length, `${provider} ${key}`).toBeGreaterThan(20);
    }
    for (const key of Object.keys(BILLING.anthropic.params) as ParamKey[])
      expect(P[key]).toEqual(BILLING.anthropic.params[key as keyof typeof BILLING.anthropic.params]);
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
