import { describe, expect, it } from 'vitest';
import { simulateEvolution, type TimelineRow } from '../../../src/protocols/kv-schema/evolution.ts';
import { EVOLUTION_PARAMS, type EvolutionParams } from '../../../src/protocols/kv-schema/params.ts';
import { FLIGHT_BOOKING_V1 } from '../../../src/protocols/kv-schema/templates.ts';
import type { TrafficScript } from '../../../src/protocols/kv-schema/traffic.ts';
import { bagOfWordsEncoder } from './test-encoder.ts';

const params = (over: Partial<EvolutionParams> = {}): EvolutionParams => ({
  ...(structuredClone(EVOLUTION_PARAMS) as unknown as EvolutionParams),
  ...over,
});

/** A scripted stream: a popular, well-mapped need and a two-day burst that then fades. */
const script: TrafficScript = {
  name: 'scripted',
  template: FLIGHT_BOOKING_V1,
  days: 75,
  requestsPerDay: 40,
  clients: 12,
  legacyShare: 0.25,
  needs: [
    { id: 'seat', phrases: ['window seat'], share: 0.4, adoption: 1, typeCorrect: 1, alignment: 1 },
    {
      id: 'pet',
      phrases: ['travelling with dog'],
      share: 0.02,
      bursts: [{ fromDay: 0, toDay: 0, share: 0.25 }],
      adoption: 1,
      typeCorrect: 1,
      alignment: 1,
    },
  ],
  noise: { share: 0, phrases: [] },
  basePayload: () => ({ origin: 'PEK', destination: 'SHA', departure_date: '2026-05-04' }),
};

describe('schema self-evolution on a scripted stream', () => {
  it('promotes a key, deprecates another, withdraws it after 14 days and retires it after 30 more', async () => {
    const r = await simulateEvolution({ script, encoder: bagOfWordsEncoder(), seed: 1, params: params() });
    const seat = r.timeline.filter((t) => t.key_name === 'window_seat');
    expect(seat.map((t) => t.event)).toEqual(['patched', 'promoted']);
    // Evaluated at the first day boundary after the 7-day trial.
    const hours = (t: TimelineRow) => t.day * 24 + t.hour;
    expect(hours(seat[1]!) - hours(seat[0]!)).toBeGreaterThanOrEqual(7 * 24);
    expect(hours(seat[1]!) - hours(seat[0]!)).toBeLessThan(8 * 24);
    expect(seat[1]!.usage!).toBeGreaterThanOrEqual(0.15);

    const pet = r.timeline.filter((t) => t.key_name === 'travelling_dog');
    expect(pet.map((t) => t.event)).toEqual(['patched', 'deprecated', 'withdrawn', 'retired']);
    expect(pet[1]!.usage!).toBeLessThan(0.05);
    const dayOf = (e: string) => pet.find((t) => t.event === e)!.day;
    expect(dayOf('withdrawn') - dayOf('deprecated')).toBe(14);
    expect(dayOf('retired') - dayOf('withdrawn')).toBe(30);

    expect(r.summary.finalKeys).toEqual({ window_seat: 'stable', travelling_dog: 'retired' });
    expect(r.finalSchema.keys.map((k) => k.key_name)).toEqual([
      'origin',
      'destination',
      'departure_date',
      'cabin_class',
      'passenger_count',
      'window_seat',
      'other',
    ]);
    // Legacy clients keep sending the withdrawn key: warned in the window, refused after retirement.
    expect(r.summary.acceptedWithWarnings).toBeGreaterThan(0);
    expect(r.summary.rejected).toBeGreaterThan(0);
    // Each patch carries the §6.2.2 metadata.
    expect(r.patches).toHaveLength(2);
    for (const p of r.patches)
      expect(p).toMatchObject({
        parent_schema_id: 'flight_booking_v1',
        patch_id: expect.any(String),
        timestamp: expect.any(String),
        expiration: expect.any(String),
      });
  });

  it('demand that keeps coming for a deprecated key never re-adds it (no churn)', async () => {
    const mistyped: TrafficScript = {
      ...script,
      days: 30,
      needs: [
        { id: 'bag', phrases: ['checked bag {n} kg'], numberRange: [15, 32], share: 0.4, adoption: 1, typeCorrect: 0.5, alignment: 1 },
      ],
    };
    const r = await simulateEvolution({ script: mistyped, encoder: bagOfWordsEncoder(), seed: 1, params: params() });
    const bag = r.timeline.filter((t) => t.key_name === 'checked_bag');
    expect(bag.map((t) => t.event)).toEqual(['patched', 'deprecated', 'withdrawn']);
    expect(bag[1]!.typeCorrectness!).toBeLessThan(0.7);
    expect(bag[1]!.usage!).toBeGreaterThanOrEqual(0.15);
    // Clients fall back to "other", the cluster matures again, and the pool ignores it.
    expect(r.summary.retriggersSuppressed).toBeGreaterThan(0);
    expect(r.summary.newKeyPatches).toBe(1);
    expect(r.summary.triggers).toBe(1);
  });

  it('the convergence guard queues triggers beyond the experimental-key limit until a slot frees', async () => {
    const busy: TrafficScript = {
      ...script,
      days: 20,
      needs: [
        { id: 'seat', phrases: ['window seat'], share: 0.4, adoption: 1, typeCorrect: 1, alignment: 1 },
        { id: 'meal', phrases: ['vegetarian meal'], share: 0.4, adoption: 1, typeCorrect: 1, alignment: 1 },
        { id: 'legroom', phrases: ['extra legroom'], share: 0.4, adoption: 1, typeCorrect: 1, alignment: 1 },
      ],
    };
    const r = await simulateEvolution({ script: busy, encoder: bagOfWordsEncoder(), seed: 2, params: params({ maxExperimentalKeys: 1 }) });
    expect(r.summary.maxExperimentalAtOnce).toBe(1);
    expect(r.summary.queuedTotal).toBe(2);
    const patched = r.timeline.filter((t) => t.event === 'patched').map((t) => t.day);
    const promoted = r.timeline.filter((t) => t.event === 'promoted').map((t) => t.day);
    expect(patched).toHaveLength(3);
    // Each queued key is patched only when the previous experimental key was promoted.
    expect(patched[1]).toBe(promoted[0]);
    expect(patched[2]).toBe(promoted[1]);
    // At no day boundary are two keys experimental at once.
    for (let d = 0; d < busy.days; d++)
      expect(r.daily.filter((x) => x.day === d && x.state === 'experimental').length).toBeLessThanOrEqual(1);

    const free = await simulateEvolution({ script: busy, encoder: bagOfWordsEncoder(), seed: 2, params: params() });
    expect(free.summary.queuedTotal).toBe(0);
    expect(free.summary.maxExperimentalAtOnce).toBe(3);
  });

  it('is reproducible for a seed', async () => {
    const a = await simulateEvolution({ script, encoder: bagOfWordsEncoder(), seed: 5, params: params() });
    const b = await simulateEvolution({ script, encoder: bagOfWordsEncoder(), seed: 5, params: params() });
    expect(a.timeline).toEqual(b.timeline);
    expect(a.summary).toEqual(b.summary);
  });
});
