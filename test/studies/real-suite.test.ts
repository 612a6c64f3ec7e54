import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PIPELINES } from '../../src/pipelines/registry.ts';
import { realSuiteStudy } from '../../src/studies/real-suite/study.ts';
import type { StudyContext } from '../../src/studies/types.ts';
import { syntheticStudyContext } from '../helpers/study-context.ts';
import { REAL_SUITE } from '../../src/table/suites.ts';

// The real suite runs the run's main pipelines on the six real dumps and tasks/real, with
// nothing fitted on those queries: B2 has no history there, θ is carried over from the
// synthetic calibration tasks. B1, B2 and B4 need no encoder, so this runs without a model.
// ADOL runs as one method (adol-combined, with bm25 as its retriever here); its single mechanisms do not.
const ids = ['b1-full-schema', 'b2-static-pruning', 'b4-cli-lazy', 'b4-cli-lazy-oracle', 'adol-short', 'adol-combined'];

function context(): StudyContext {
  return syntheticStudyContext(
    (all) => all.slice(0, 3),
    PIPELINES.filter((p) => ids.includes(p.id)),
    { retriever: 'bm25', resultsDir: mkdtempSync(join(tmpdir(), 'tooltax-real-suite-')) },
  );
}

describe('real suite', () => {
  const ctx = context();
  afterAll(() => rmSync(ctx.resultsDir, { recursive: true, force: true }));

  it('writes Table 3 (measured and projected) and Table 4 for the real suite, with no published columns', async () => {
    const tables = await realSuiteStudy.run(ctx);
    const byId = new Map(tables.map((t) => [t.id, t]));
    const measured = byId.get(REAL_SUITE.measuredTable)!;
    expect(measured.rows.map((r) => r.pipeline)).toEqual(['b1-full-schema', 'b2-static-pruning', 'b4-cli-lazy', 'b4-cli-lazy-oracle']);
    expect(byId.get(REAL_SUITE.projectedTable)!.rows).toHaveLength(4);
    expect(byId.get(REAL_SUITE.qualityTable)).toBeDefined();
    for (const t of tables) expect(t.columns.filter((c) => c.kind === 'published')).toEqual([]);
    // B1 lists all 267 real tools on every turn: recall 1, and more tokens than the synthetic 120.
    const b1 = measured.rows[0]!;
    expect(b1.recall).toBe(1);
    expect(b1.toolTokens as number).toBeGreaterThan(50_000);
    // No 30-turn tasks in the real set: rho at turn 30 is empty, and the note says why.
    expect(b1.rho).toBeNaN();
    expect(measured.notes!.join(' ')).toMatch(/no task of 30 turns/);
    expect(byId.get('adol-real')!.rows.map((r) => r.pipeline)).toEqual(['b1-full-schema', 'adol-combined']);
  });

  it('says what B2 used instead of usage history, and never reads the evaluated queries for it', async () => {
    const [measured] = await realSuiteStudy.run(ctx);
    const note = measured!.notes!.find((n) => n.startsWith('Fitted on'))!;
    expect(note).toMatch(/B2 Static Pruning: tool subset: no usage history over .*: all 30 tools by the fallback rule/);
  });

  it('runs only with the synthetic bench (a user catalog is measured on its own tasks)', async () => {
    expect(await realSuiteStudy.run({ ...ctx, catalog: { ...ctx.catalog, name: 'mine' } })).toEqual([]);
  });
});
