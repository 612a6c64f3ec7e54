import { describe, expect, it } from 'vitest';
import { RecordCompactor } from '../../src/measure/compact-records.ts';
import type { TurnRecord } from '../../src/measure/run-pipeline.ts';

function record(over: Partial<TurnRecord> = {}): TurnRecord {
  return {
    pipeline: 'b1-full-schema',
    seed: 42,
    taskId: 't-001',
    kind: 'long',
    ambiguous: false,
    turn: 0,
    turns: 3,
    neededTools: ['github/get_file_contents'],
    schemaTools: ['github/get_file_contents', 'filesystem/read_file'],
    neededListed: 1,
    promptTokens: 900,
    toolTokens: 600,
    toolTokensByLabel: { 'tool-definitions': 600 },
    systemTokens: 100,
    historyTokens: 0,
    userTokens: 200,
    stablePrefixTokens: 700,
    listedTools: 2,
    fullSchemaTools: 2,
    discoveryCalls: 0,
    listedForm: 'summary',
    neededSelected: 0,
    needed: 1,
    neededPresent: 1,
    recall: 1,
    precision: 0.5,
    missingNeeded: false,
    ...over,
  };
}

describe('RecordCompactor', () => {
  it('keeps every value and shares equal lists and per-label objects between records', () => {
    const c = new RecordCompactor();
    // Copies, as a record arrives from a worker lane.
    const a = c.compact(structuredClone(record()));
    const b = c.compact(structuredClone(record({ turn: 1, toolTokensByLabel: { 'tool-definitions': 600 } })));
    expect(a).toEqual(record());
    expect(b).toEqual(record({ turn: 1 }));
    expect(b.schemaTools).toBe(a.schemaTools);
    expect(b.neededTools).toBe(a.neededTools);
    expect(b.toolTokensByLabel).toBe(a.toolTokensByLabel);
  });

  it('does not share lists or labels that differ', () => {
    const c = new RecordCompactor();
    const a = c.compact(record());
    const b = c.compact(record({ schemaTools: ['filesystem/read_file'], toolTokensByLabel: { 'tool-definitions': 601 } }));
    expect(b.schemaTools).toEqual(['filesystem/read_file']);
    expect(b.toolTokensByLabel).toEqual({ 'tool-definitions': 601 });
    expect(b.schemaTools).not.toBe(a.schemaTools);
  });
});
