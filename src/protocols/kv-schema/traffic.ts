import type { Rng } from '../../util/rng.ts';
import { FLIGHT_BOOKING_V1 } from './templates.ts';
import type { SchemaTemplate } from './types.ts';

/**
 * Scripted client traffic for the self-evolution simulation. A "need" is a recurring intent the
 * base schema lacks; clients write it into "other" with one of its phrasings until they adopt a
 * key for it. Shares, adoption, alignment and type correctness are the script's parameters
 * (ground truth the server never sees); everything the server decides is computed from the
 * payloads it receives.
 */

export interface Burst {
  fromDay: number;
  toDay: number;
  share: number;
}

export interface Need {
  id: string;
  /** Phrasings written into "other"; `{n}` is replaced by a number from numberRange. */
  phrases: readonly string[];
  numberRange?: readonly [number, number];
  /** Share of requests carrying the need. */
  share: number;
  /** Days with a different share (a burst of demand). */
  bursts?: readonly Burst[];
  /** Probability that a client adopts the key when it receives it. */
  adoption: number;
  /** Probability that a value sent under the key has the declared type. */
  typeCorrect: number;
  /** Probability that a judge finds the key's value aligned with the request. */
  alignment: number;
}

export interface TrafficScript {
  name: string;
  template: SchemaTemplate;
  days: number;
  requestsPerDay: number;
  clients: number;
  /** Share of clients that never drop a key once adopted (they meet withdrawal and retirement). */
  legacyShare: number;
  needs: readonly Need[];
  noise: { share: number; phrases: readonly string[] };
  basePayload(rng: Rng): Record<string, unknown>;
}

export function shareOn(need: Need, day: number): number {
  return need.bursts?.find((b) => day >= b.fromDay && day <= b.toDay)?.share ?? need.share;
}

export function renderPhrase(need: Need, rng: Rng): { text: string; n: number | undefined } {
  const phrase = rng.pick(need.phrases);
  if (!phrase.includes('{n}')) return { text: phrase, n: undefined };
  const [lo, hi] = need.numberRange ?? [1, 9];
  const n = rng.int(lo, hi);
  return { text: phrase.replaceAll('{n}', String(n)), n };
}

/** Every fragment text the script can produce (embedded once, up front). */
export function allFragmentTexts(script: TrafficScript): string[] {
  const out = new Set<string>(script.noise.phrases);
  for (const need of script.needs) {
    for (const phrase of need.phrases) {
      if (!phrase.includes('{n}')) out.add(phrase);
      else {
        const [lo, hi] = need.numberRange ?? [1, 9];
        for (let n = lo; n <= hi; n++) out.add(phrase.replaceAll('{n}', String(n)));
      }
    }
  }
  return [...out];
}

const AIRPORTS = ['PEK', 'SHA', 'CAN', 'HKG', 'LHR', 'JFK', 'CDG', 'FRA', 'SIN', 'DXB'];

function flightPayload(rng: Rng): Record<string, unknown> {
  const origin = rng.pick(AIRPORTS);
  const destination = rng.pick(AIRPORTS.filter((a) => a !== origin));
  const p: Record<string, unknown> = {
    origin,
    destination,
    departure_date: `2026-0${rng.int(5, 9)}-${String(rng.int(1, 28)).padStart(2, '0')}`,
  };
  if (rng.chance(0.4)) p.cabin_class = rng.pick(['economy', 'premium_economy', 'business', 'first']);
  if (rng.chance(0.3)) p.passenger_count = rng.int(1, 4);
  return p;
}

/**
 * The study's default flight-booking stream: one need clients want often and map well (seat),
 * one popular but mistyped (baggage weight sent as "23 kg" strings), one judged poorly aligned
 * (meal), one moderate (legroom), one short burst then rare (pets), and one-off noise.
 */
export const FLIGHT_EVOLUTION_SCRIPT: TrafficScript = {
  name: 'flight-booking-90d',
  template: FLIGHT_BOOKING_V1,
  days: 90,
  requestsPerDay: 200,
  clients: 40,
  legacyShare: 0.1,
  needs: [
    {
      id: 'window-seat',
      phrases: ['window seat', 'a window seat please', 'window seat preferred'],
      share: 0.25,
      adoption: 0.9,
      typeCorrect: 0.97,
      alignment: 0.93,
    },
    {
      id: 'bag-weight',
      phrases: ['checked bag {n} kg', 'one checked bag of {n} kg', 'checked baggage {n} kg'],
      numberRange: [15, 32],
      share: 0.2,
      adoption: 0.9,
      typeCorrect: 0.55,
      alignment: 0.9,
    },
    {
      id: 'veggie-meal',
      phrases: ['vegetarian meal', 'vegetarian meal please', 'a vegetarian meal'],
      share: 0.2,
      adoption: 0.85,
      typeCorrect: 0.98,
      alignment: 0.7,
    },
    {
      id: 'legroom',
      phrases: ['extra legroom', 'seat with extra legroom', 'extra legroom please'],
      share: 0.12,
      adoption: 0.8,
      typeCorrect: 0.95,
      alignment: 0.9,
    },
    {
      id: 'pet',
      phrases: ['travelling with my dog', 'travelling with a small dog', 'dog travelling in the cabin'],
      share: 0.005,
      bursts: [{ fromDay: 10, toDay: 12, share: 0.2 }],
      adoption: 0.8,
      typeCorrect: 0.95,
      alignment: 0.9,
    },
  ],
  noise: {
    share: 0.05,
    phrases: [
      'my grandmother needs help boarding',
      'I am a light sleeper',
      'can I bring my guitar',
      'first time flying',
      'please note my frequent flyer number later',
      'avoid connections through Dubai',
      'I get airsick easily',
      'need a receipt for my company',
      'travelling for a wedding',
      'will bring a laptop and a tablet',
      'I might change the date',
      'my passport expires soon',
      'allergic to peanuts',
      'I want to earn miles',
      'hope the flight is on time',
      'my colleague books separately',
      'prefer a newer aircraft',
      'can I pay in two parts',
      'is there wifi on board',
      'need to arrive before noon',
    ],
  },
  basePayload: flightPayload,
};
