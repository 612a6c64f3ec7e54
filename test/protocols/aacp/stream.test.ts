import { describe, expect, it } from 'vitest';
import { StandInLlmEncoder } from '../../../src/protocols/aacp/llm-encoder.ts';
import { staleValues, simulateStream } from '../../../src/protocols/aacp/stream.ts';

describe('payroll stream through the fallback encoder', () => {
  it('makes at most one LLM call per novel pattern, serves no stale packet, and costs what it counts', async () => {
    const llm = new StandInLlmEncoder();
    const r = await simulateStream({ seed: 7, runs: 100, llm });
    const s = r.summary;
    expect(s.instructions).toBe(s.standardInstructions + s.novelInstructions + s.oneOffInstructions);
    expect(s.llmCalls + s.hashHits + s.patternRegistryHits + s.patternBuiltinHits).toBe(s.instructions);
    expect(s.maxLlmCallsPerPattern).toBe(1);
    expect(Object.keys(r.llmCallsByPattern).every((p) => !p.startsWith('standard/'))).toBe(true);
    expect(s.llmCalls).toBe(s.distinctNovelPatterns + s.oneOffInstructions);
    expect(s.llmCalls).toBe(llm.calls);
    expect(s.llmCostUsd).toBeCloseTo(llm.calls * 0.0006, 9);
    expect(s.stalePackets).toBe(0);
    expect(s.hashHits).toBeGreaterThan(0);
    expect(s.patternRegistryHits).toBeGreaterThan(0);
    expect(s.patternBuiltinHits).toBe(s.standardInstructions);
  });

  it('the reference SDK Tier 2 replayed on the same stream serves stale periods and amounts', async () => {
    const safe = await simulateStream({ seed: 7, runs: 100 });
    const sdk = await simulateStream({ seed: 7, runs: 100, staleSafe: false });
    expect(sdk.summary.instructions).toBe(safe.summary.instructions);
    expect(sdk.summary.stalePackets).toBeGreaterThan(0);
    expect(sdk.summary.stalePackets).toBeLessThanOrEqual(sdk.summary.patternRegistryHits);
    expect(safe.summary.stalePackets).toBe(0);
  });

  it('is reproducible for a seed and differs across seeds', async () => {
    const a = await simulateStream({ seed: 3, runs: 60 });
    const b = await simulateStream({ seed: 3, runs: 60 });
    const c = await simulateStream({ seed: 4, runs: 60 });
    expect(a.summary).toEqual(b.summary);
    expect(a.events).toEqual(b.events);
    expect(c.events).not.toEqual(a.events);
  });

  it("staleValues flags periods and amounts that are not the instruction's", () => {
    const english = 'Post the September 2024 payroll accrual journal of £13,150 to the general ledger.';
    expect(staleValues('PROC|FIN|return:A|p:2|aacp:1.1|period:2024-09|amt:13150', english)).toEqual([]);
    expect(staleValues('PROC|FIN|return:A|p:2|aacp:1.1|period:2024-08|amt:12500', english)).toEqual(['period:2024-08', 'amt:12500']);
  });
});
