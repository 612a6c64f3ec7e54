import { describe, expect, it } from 'vitest';
import { breakEven, measureKvTokens } from '../../../src/protocols/kv-schema/measure.ts';
import { negotiationRequest } from '../../../src/protocols/kv-schema/negotiation.ts';
import { NL_REQUESTS } from '../../../src/protocols/kv-schema/requests.ts';
import { FLIGHT_BOOKING_V1 } from '../../../src/protocols/kv-schema/templates.ts';
import { kvSchemaTables } from '../../../src/studies/kv-schema/tables.ts';
import { tableToMarkdown } from '../../../src/report/table-text.ts';
import { runKvSchemaStudy } from '../../../src/studies/kv-schema/run.ts';
import { FLIGHT_EVOLUTION_SCRIPT } from '../../../src/protocols/kv-schema/traffic.ts';
import { countTokens } from '../../../src/tokens/counter.ts';
import { bagOfWordsEncoder } from './test-encoder.ts';

describe('NL vs structured payload tokens', () => {
  it('break-even is the smallest n with fixed + n·payload ≤ n·NL, or never', () => {
    expect(breakEven(300, 20, 50)).toBe(10);
    expect(breakEven(301, 20, 50)).toBe(11);
    expect(breakEven(0, 20, 50)).toBe(1);
    expect(breakEven(300, 50, 50)).toBeNull();
    expect(breakEven(300, 60, 50)).toBeNull();
  });

  // cl100k only: the o200k path is the same code and is exercised by the AACP measurement tests.
  const rows = measureKvTokens(undefined, undefined, ['cl100k_base']);

  it('covers every scenario and both JSON layouts for the tokenizers asked', () => {
    expect(rows).toHaveLength(4 * 2);
    expect(rows.every((r) => r.requests >= 4)).toBe(true);
  });

  it('counts the exact texts: NL requests, payloads and the negotiation pair', () => {
    const r = rows.find((x) => x.scenario === 'flight_booking' && x.tokenizer === 'cl100k_base' && x.layout === 'compact')!;
    const flights = NL_REQUESTS.filter((x) => x.scenario === 'flight_booking');
    const meanNl = flights.reduce((s, x) => s + countTokens(x.text), 0) / flights.length;
    const meanPayload = flights.reduce((s, x) => s + countTokens(JSON.stringify(x.payload)), 0) / flights.length;
    expect(r.nlTokensMean).toBeCloseTo(meanNl, 1);
    expect(r.payloadTokensMean).toBeCloseTo(meanPayload, 1);
    expect(r.negotiationRequestTokens).toBe(countTokens(JSON.stringify(negotiationRequest('flight_booking'))));
    expect(r.negotiationResponseTokens).toBe(countTokens(JSON.stringify(FLIGHT_BOOKING_V1)));
    expect(r.breakEvenMessages).toBe(breakEven(r.negotiationTokens, r.payloadTokensMean, r.nlTokensMean));
    expect(r.breakEvenWithServerParse).toBe(
      breakEven(r.negotiationTokens, r.payloadTokensMean, r.nlTokensMean + r.negotiationResponseTokens),
    );
  });

  it('pretty-printed JSON costs more tokens than compact JSON', () => {
    for (const c of rows.filter((x) => x.layout === 'compact')) {
      const p = rows.find((x) => x.scenario === c.scenario && x.tokenizer === c.tokenizer && x.layout === 'pretty')!;
      expect(p.payloadTokensMean).toBeGreaterThan(c.payloadTokensMean);
      expect(p.negotiationResponseTokens).toBeGreaterThan(c.negotiationResponseTokens);
    }
  });
});

describe('runKvSchemaStudy', () => {
  it('returns plain rows (tokens, timeline, daily states) and renders them as Markdown', async () => {
    const r = await runKvSchemaStudy({
      seed: 42,
      encoder: bagOfWordsEncoder(),
      script: { ...FLIGHT_EVOLUTION_SCRIPT, days: 12, requestsPerDay: 80 },
      tokenizers: ['cl100k_base'],
    });
    expect(r.tokenRows).toHaveLength(8);
    expect(r.evolution.timeline.length).toBeGreaterThan(0);
    expect(r.evolution.daily.every((d) => d.day < 12)).toBe(true);
    expect(JSON.parse(JSON.stringify(r.evolution.timeline))).toEqual(r.evolution.timeline);
    expect(r.params.clusterSimilarity).toBe(0.85);
    const md = kvSchemaTables(r).map(tableToMarkdown).join('\n');
    expect(md).toContain('| flight_booking | cl100k_base |');
    expect(md).toContain("### Timeline of the schema's keys");
    expect(md).toContain('| window_seat | patched | experimental |');
    expect(md).toContain('encoder test-bag-of-words');
  });
});
