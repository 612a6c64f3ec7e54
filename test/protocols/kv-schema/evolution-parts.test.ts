import { describe, expect, it } from 'vitest';
import { RuleBasedKeyInducer } from '../../../src/protocols/kv-schema/key-inducer.ts';
import { decide, emptyMetrics, snapshot } from '../../../src/protocols/kv-schema/lifecycle.ts';
import { EVOLUTION_PARAMS } from '../../../src/protocols/kv-schema/params.ts';
import { packagePatch } from '../../../src/protocols/kv-schema/patch.ts';
import { DifferentialSemanticPool } from '../../../src/protocols/kv-schema/semantic-pool.ts';
import { FLIGHT_BOOKING_V1 } from '../../../src/protocols/kv-schema/templates.ts';
import { bagOfWordsEncoder } from './test-encoder.ts';

const P = EVOLUTION_PARAMS;
const enc = bagOfWordsEncoder();
const vec = async (t: string) => (await enc.embed([t]))[0]!;

describe('differential semantic pool (§6.2.1)', () => {
  it('joins a cluster at cosine ≥ 0.85 and opens a new one below', async () => {
    const pool = new DifferentialSemanticPool(P);
    const a = pool.add({ text: 'window seat', clientId: 'c1', timeH: 0 }, await vec('window seat'));
    const b = pool.add({ text: 'a window seat please', clientId: 'c2', timeH: 1 }, await vec('a window seat please'));
    const c = pool.add({ text: 'vegetarian meal', clientId: 'c3', timeH: 2 }, await vec('vegetarian meal'));
    expect(b.cluster).toBe(a.cluster);
    expect(b.similarity).toBeGreaterThanOrEqual(0.85);
    expect(c.cluster).not.toBe(a.cluster);
    expect(pool.clusters).toHaveLength(2);
    // "window seat with extra legroom" shares 2 of 4 words: cosine ≈ 0.71 < 0.85
    const d = pool.add({ text: 'window seat with extra legroom', clientId: 'c4', timeH: 3 }, await vec('window seat with extra legroom'));
    expect(d.similarity).toBeLessThan(0.85);
    expect(pool.clusters).toHaveLength(3);
  });

  it('heat grows by the increment and halves every 24 hours', async () => {
    const pool = new DifferentialSemanticPool(P);
    const v = await vec('window seat');
    const { cluster } = pool.add({ text: 'window seat', clientId: 'c1', timeH: 0 }, v);
    pool.add({ text: 'window seat', clientId: 'c1', timeH: 0 }, v);
    expect(pool.heat(cluster, 0)).toBeCloseTo(20, 9);
    expect(pool.heat(cluster, 24)).toBeCloseTo(10, 9);
    expect(pool.heat(cluster, 72)).toBeCloseTo(2.5, 9);
    pool.add({ text: 'window seat', clientId: 'c1', timeH: 24 }, v);
    expect(pool.heat(cluster, 24)).toBeCloseTo(20, 9);
  });

  it('the dual gate needs heat AND (5 clients OR 10 occurrences in 7 days)', async () => {
    const v = await vec('window seat');
    // Heat 60 from 6 fragments at once, but only 2 clients and 6 occurrences: not mature.
    const few = new DifferentialSemanticPool(P);
    for (let i = 0; i < 6; i++) few.add({ text: 'window seat', clientId: `c${i % 2}`, timeH: 0 }, v);
    expect(few.heat(few.clusters[0]!, 0)).toBeGreaterThanOrEqual(50);
    expect(few.isMature(few.clusters[0]!, 0)).toBe(false);
    // Same heat from 5 distinct clients: mature.
    const clients = new DifferentialSemanticPool(P);
    for (let i = 0; i < 6; i++) clients.add({ text: 'window seat', clientId: `c${i % 5}`, timeH: 0 }, v);
    expect(clients.isMature(clients.clusters[0]!, 0)).toBe(true);
    // 10 occurrences from one client within the window: mature.
    const many = new DifferentialSemanticPool(P);
    for (let i = 0; i < 10; i++) many.add({ text: 'window seat', clientId: 'c1', timeH: i * 0.1 }, v);
    expect(many.isMature(many.clusters[0]!, 1)).toBe(true);
    // 10 clients but the heat has decayed over 10 days: not mature.
    const cold = new DifferentialSemanticPool(P);
    for (let i = 0; i < 10; i++) cold.add({ text: 'window seat', clientId: `c${i}`, timeH: i * 24 }, v);
    expect(cold.isMature(cold.clusters[0]!, 9 * 24)).toBe(false);
  });
});

describe('intent induction, conflict detection, patch packaging (§6.2.2)', () => {
  const inducer = new RuleBasedKeyInducer();

  it('names the key after the dominant words, types it from the values and quotes real fragments', () => {
    const seat = inducer.induce(['window seat', 'a window seat please', 'window seat preferred']);
    expect(seat.key_name).toBe('window_seat');
    expect(seat.key_type).toBe('boolean');
    expect(seat.required).toBe(false);
    expect(seat.semantic_description).toContain("'a window seat please' -> true");
    const bag = inducer.induce(['checked bag 23 kg', 'one checked bag of 20 kg', 'checked bag 18 kg']);
    expect(bag.key_name).toBe('checked_bag');
    expect(bag.key_type).toBe('integer');
    expect(bag.semantic_description).toContain("'one checked bag of 20 kg' -> 20");
  });

  const ctx = (patchKeys = new Map()) => ({
    parentSchemaId: 'flight_booking_v1',
    baseKeys: new Map(FLIGHT_BOOKING_V1.keys.map((k) => [k.key_name, k])),
    patchKeys,
    patchId: 'p-1',
    timestamp: new Date('2026-05-01T00:00:00Z'),
    observationWindowDays: 30,
  });

  it('a new name becomes an experimental key in a patch with id, parent, timestamp and expiration', () => {
    const out = packagePatch(inducer.induce(['window seat']), ctx());
    expect(out.conflict).toBe('none');
    expect(out.patch).toMatchObject({
      patch_id: 'p-1',
      parent_schema_id: 'flight_booking_v1',
      timestamp: '2026-05-01T00:00:00.000Z',
      expiration: '2026-05-31T00:00:00.000Z',
    });
    expect(out.patch.new_keys).toEqual([expect.objectContaining({ key_name: 'window_seat', experimental: true, required: false })]);
    expect(out.patch.modified_keys).toBeUndefined();
  });

  it('a name colliding with a base key refines its description without changing its type', () => {
    const candidate = {
      key_name: 'cabin_class',
      key_type: 'boolean' as const,
      required: false,
      semantic_description: "Induced. Example mapping: 'upgrade to business' -> true.",
    };
    const out = packagePatch(candidate, ctx());
    expect(out.conflict).toBe('base-key');
    expect(out.patch.new_keys).toBeUndefined();
    const m = out.patch.modified_keys![0]!;
    expect(m.key_type).toBe('string');
    expect(m.semantic_description).toContain("Further mapping examples: 'upgrade to business' -> true.");
  });

  it('a name colliding with an active patch key is merged into it', () => {
    const active = { key_name: 'window_seat', key_type: 'boolean' as const, required: false, semantic_description: 'Seat by the window.' };
    const out = packagePatch(inducer.induce(['window seat preferred']), ctx(new Map([['window_seat', active]])));
    expect(out.conflict).toBe('patch-key');
    expect(out.patch.modified_keys![0]!.semantic_description).toMatch(
      /^Seat by the window\. Further mapping examples: 'window seat preferred' -> true\.$/,
    );
  });
});

describe('stabilisation decision (§6.2.3)', () => {
  const m = (payloads: number, uses: number, aligned: number, typeOk: number) =>
    snapshot({ ...emptyMetrics(), payloads, uses, aligned, typeOk });
  it('promotes at usage ≥ 15%, alignment ≥ 80%, type ≥ 90% (inclusive)', () => {
    expect(m(100, 15, 12, 14)).toEqual({ usage: 0.15, alignment: 0.8, typeCorrectness: 14 / 15, adoption: null });
    expect(decide(m(100, 15, 12, 14), P)).toBe('promote');
    expect(decide(m(100, 15, 12, 13), P)).toBe('extend'); // type 87%: neither bar
  });
  it('boundaries', () => {
    expect(decide({ usage: 0.15, alignment: 0.8, typeCorrectness: 0.9, adoption: 1 }, P)).toBe('promote');
    expect(decide({ usage: 0.149, alignment: 0.8, typeCorrectness: 0.9, adoption: 1 }, P)).toBe('extend');
    expect(decide({ usage: 0.049, alignment: 1, typeCorrectness: 1, adoption: 1 }, P)).toBe('deprecate');
    expect(decide({ usage: 0.05, alignment: 0.6, typeCorrectness: 0.7, adoption: 1 }, P)).toBe('extend');
    expect(decide({ usage: 0.5, alignment: 0.59, typeCorrectness: 1, adoption: 1 }, P)).toBe('deprecate');
    expect(decide({ usage: 0.5, alignment: 1, typeCorrectness: 0.69, adoption: 1 }, P)).toBe('deprecate');
    expect(decide({ usage: 0, alignment: null, typeCorrectness: null, adoption: 0 }, P)).toBe('deprecate');
  });
});
