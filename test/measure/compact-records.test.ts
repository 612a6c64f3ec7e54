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
    resultTokens: 40,
    measuredResultTokens: 0,
    codeTokens: 0,
    roundTrips: 2,
    toolTokens: 600,
    toolTokensByLabel: { 'tool-definitions': 600 },
    toolTokensByHost: { 'mcp-json': 600, anthropic: 900 },
    systemTokens: 100,
    historyTokens: 0,
    userTokens: 200,
    stablePrefixTokens: 700,
    sharedPrefixTokens: 0,
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
  it('gives a list met again its shared copy, and looks a list changed in place up again', () => {
    const c = new RecordCompactor();
    const tools = ['github/get_file_contents', 'filesystem/read_file'];
    const a = c.compact(record({ schemaTools: tools }));
    expect(c.compact(record({ schemaTools: tools })).schemaTools).toBe(a.schemaTools);
    tools.push('slack/post_message');
    const b = c.compact(record({ schemaTools: tools }));
    expect(b.schemaTools).toEqual(['github/get_file_contents', 'filesystem/read_file', 'slack/post_message']);
    expect(a.schemaTools).toEqual(['github/get_file_contents', 'filesystem/read_file']);
  });

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
    expect(b.toolTokensByHost).toBe(a.toolTokensByHost);
  });

  it('tells lists apart by their ids in order, however many ids it has met', () => {
    const c = new RecordCompactor();
    // Past 0x8000 ids a list's key takes two characters per id: met here before the lists below.
    for (let i = 0; i < 0x8001; i++) c.compact(record({ neededTools: [`t${i}`] }));
    const lists = [['a', 'b'], ['b', 'a'], ['ab'], ['a', 'b', 'a'], [], ['t32768'], ['t0', 't1'], ['t32768', 'a']];
    const shared = lists.map((l) => c.compact(record({ schemaTools: [...l] })).schemaTools);
    expect(shared).toEqual(lists);
    expect(new Set(shared).size).toBe(lists.length);
    lists.forEach((l, i) => expect(c.compact(record({ schemaTools: [...l] })).schemaTools).toBe(shared[i]));
  });

  it('does not share lists or labels that differ', () => {
    const c = new RecordCompactor();
    const a = c.compact(record());
    const b = c.compact(
      record({
        schemaTools: ['filesystem/read_file'],
        toolTokensByLabel: { 'tool-definitions': 601 },
        toolTokensByHost: { 'mcp-json': 601 },
      }),
    );
    expect(b.schemaTools).toEqual(['filesystem/read_file']);
    expect(b.toolTokensByLabel).toEqual({ 'tool-definitions': 601 });
    expect(b.toolTokensByHost).toEqual({ 'mcp-json': 601 });
    expect(b.toolTokensByHost).not.toBe(a.toolTokensByHost);
    expect(b.schemaTools).not.toBe(a.schemaTools);
  });
});

describe('RecordCompactor.compactAll', () => {
  it('gives what compact gives record by record, also for one list object shared by many records', () => {
    const shared = ['github/get_file_contents', 'filesystem/read_file'];
    const labels = { 'tool-definitions': 600 };
    const run = [0, 1, 2].map((turn) => record({ turn, schemaTools: shared, toolTokensByLabel: labels }));
    const copy = structuredClone(run); // one message from a worker: the shared objects stay shared
    expect(copy[1]!.schemaTools).toBe(copy[0]!.schemaTools);
    const all = new RecordCompactor().compactAll(copy);
    const one = new RecordCompactor();
    expect(all).toEqual(copy.map((r) => one.compact(r)));
    expect(all[2]!.schemaTools).toBe(all[0]!.schemaTools);
    // A later run's records that happen to reuse the array object are not read from the earlier run's identities.
    const c = new RecordCompactor();
    const list = ['a/x'];
    c.compactAll([record({ schemaTools: list })]);
    list.push('b/y'); // a caller that broke the no-mutation rule between runs
    expect(c.compactAll([record({ schemaTools: list })])[0]!.schemaTools).toEqual(['a/x', 'b/y']);
  });
});
