import { beforeAll, describe, expect, it } from 'vitest';
import { createEncoder } from '../../../src/embed/registry.ts';
import type { Encoder } from '../../../src/embed/types.ts';
import { simulateEvolution } from '../../../src/protocols/kv-schema/evolution.ts';
import { EVOLUTION_PARAMS } from '../../../src/protocols/kv-schema/params.ts';
import { DifferentialSemanticPool } from '../../../src/protocols/kv-schema/semantic-pool.ts';
import { FLIGHT_BOOKING_V1 } from '../../../src/protocols/kv-schema/templates.ts';
import type { TrafficScript } from '../../../src/protocols/kv-schema/traffic.ts';

/** The tests that are about embeddings use the real sentence encoder (USE-lite, shipped in npm). */
let encoder: Encoder;
beforeAll(async () => {
  encoder = await createEncoder('use-lite', { cache: false });
});

describe('semantic pool with the real encoder', () => {
  it('clusters near-identical phrasings at cosine ≥ 0.85 and keeps different intents apart', async () => {
    const texts = ['vegetarian meal', 'a vegetarian meal', 'window seat', 'travelling with my dog'];
    const v = await encoder.embed(texts);
    const pool = new DifferentialSemanticPool(EVOLUTION_PARAMS);
    const ids = texts.map((text, i) => pool.add({ text, clientId: 'c', timeH: i }, v[i]!).cluster.id);
    expect(ids[1]).toBe(ids[0]);
    expect(new Set(ids).size).toBe(3);
  });

  it('drives the evolution loop: fragments of a need become one promoted key', async () => {
    const script: TrafficScript = {
      name: 'real-encoder-mini',
      template: FLIGHT_BOOKING_V1,
      days: 10,
      requestsPerDay: 60,
      clients: 10,
      legacyShare: 0,
      needs: [{ id: 'meal', phrases: ['vegetarian meal', 'a vegetarian meal'], share: 0.4, adoption: 1, typeCorrect: 1, alignment: 1 }],
      noise: { share: 0.02, phrases: ['I am a light sleeper', 'can I bring my guitar', 'is there wifi on board'] },
      basePayload: () => ({ origin: 'PEK', destination: 'SHA', departure_date: '2026-05-04' }),
    };
    const r = await simulateEvolution({ script, encoder, seed: 42 });
    expect(r.summary.encoder).toBe('use-lite');
    expect(r.timeline.filter((t) => t.event === 'patched').map((t) => t.key_name)).toEqual(['vegetarian_meal']);
    expect(r.summary.finalKeys).toEqual({ vegetarian_meal: 'stable' });
  });
});
