import { describe, expect, it } from 'vitest';
import { CODE_MODE_KINDS, codeModeTable } from '../../src/measure/code-mode-table.ts';
import type { PipelineSummary } from '../../src/measure/summarize.ts';
import { HOST_SEARCH_IDS } from '../../src/pipelines/host-search/entries.ts';

/** A summary with only what the code mode table reads (a test stand-in, not a bench summary). */
const summary = (
  pipeline: string,
  definitions: number,
  recall = 1,
  seeds = [42, 43, 44],
  byHost: Record<string, number> = {},
): PipelineSummary =>
  ({
    pipeline,
    label: pipeline,
    seeds,
    toolTokens: { mean: definitions },
    toolTokensByHost: byHost,
    resultTokens: 100,
    codeTokens: 0,
    measuredResultShare: 0,
    roundTrips: 2,
    recall,
  }) as unknown as PipelineSummary;

describe('code mode table', () => {
  const ids = ['b1-full-schema', 'b2-static-pruning', 'code-mode', 'tool-examples', HOST_SEARCH_IDS[0]!];
  const table = codeModeTable(
    ids.map((id, i) => summary(id, 1_000 * (i + 1))),
    ids.map((id) => ({ id, reference: '' })),
    'context',
  );

  it('takes the compared methods, every code pipeline and the hosts’ tool search, each with its kind', () => {
    expect(table.rows.map((r) => [r.pipeline, r.kind])).toEqual([
      ['b1-full-schema', CODE_MODE_KINDS.paper],
      ['code-mode', CODE_MODE_KINDS.code],
      ['tool-examples', CODE_MODE_KINDS.examples],
      [HOST_SEARCH_IDS[0], CODE_MODE_KINDS.hostSearch],
    ]);
  });

  it('compares each total with B1’s', () => {
    // B1: 1,000 + 100; code-mode: 3,000 + 100.
    expect(table.rows.find((r) => r.pipeline === 'code-mode')!.vsB1).toBeCloseTo((100 * (3_100 - 1_100)) / 1_100, 6);
    expect(table.rows.find((r) => r.pipeline === 'b1-full-schema')!.vsB1).toBeUndefined();
  });

  it('states the basis of each comparison with B1: as the run measures it, and under each host profile', () => {
    const t = codeModeTable(
      [summary('b1-full-schema', 1_000, 1, [42], { anthropic: 400 }), summary('code-mode', 1_200, 1, [42], { anthropic: 1_000 })],
      [
        { id: 'b1-full-schema', reference: '' },
        { id: 'code-mode', reference: '' },
      ],
      'context',
    );
    const note = t.notes!.find((n) => n.startsWith('Basis:'))!;
    expect(note).toContain('code-mode +20.0%, anthropic +150.0%');
    // Without a code-execution row there is nothing to state.
    expect(
      codeModeTable([summary('b1-full-schema', 1_000)], [{ id: 'b1-full-schema', reference: '' }], 'c').notes!.some((n) =>
        n.startsWith('Basis:'),
      ),
    ).toBe(false);
  });

  it('names the methods that ran on fewer seeds than the others, and adds no line when all ran on the same', () => {
    const mixed = codeModeTable(
      [summary('b1-full-schema', 1_000), summary('code-mode', 2_000, 1, [42]), summary(HOST_SEARCH_IDS[0]!, 500, 1, [42])],
      ['b1-full-schema', 'code-mode', HOST_SEARCH_IDS[0]!].map((id) => ({ id, reference: '' })),
      'context',
    );
    const note = mixed.notes!.find((n) => n.startsWith('Task sets:'));
    expect(note).toBe(
      `Task sets: the other methods ran on seeds 42, 43, 44. On seed 42 only: code-mode; ${HOST_SEARCH_IDS[0]}. Same generator, fewer tasks: compare with the CIs.`,
    );
    expect(table.notes!.some((n) => n.startsWith('Task sets:'))).toBe(false);
  });
});
