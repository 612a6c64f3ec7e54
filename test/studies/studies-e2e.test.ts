import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StudyContext } from '../../src/studies/types.ts';
import { syntheticStudyContext } from '../helpers/study-context.ts';
import { STUDIES } from '../../src/studies/registry.ts';
import { PIPELINES } from '../../src/pipelines/registry.ts';
import { createAdversarialStudy } from '../../src/studies/adversarial/study.ts';
import { pipelineContext } from '../../src/studies/common.ts';
import { runPipeline } from '../../src/measure/run-pipeline.ts';
import { createPromptCachingStudy } from '../../src/studies/prompt-caching/study.ts';
import { createScalingStudy } from '../../src/studies/scaling/study.ts';
import { createTfidfEncoder } from '../../src/embed/tfidf.ts';
import { tfidfCorpus } from '../../src/retrieval/encoder.ts';

const b1 = PIPELINES.filter((p) => p.id === 'b1-full-schema');

function context(): StudyContext {
  return syntheticStudyContext(
    (all) => [
      ...all.filter((t) => t.kind === 'single').slice(0, 4),
      ...all.filter((t) => t.kind === 'multi').slice(0, 2),
      ...all.filter((t) => t.kind === 'long' && t.turns.length >= 30).slice(0, 1),
    ],
    b1,
  );
}

describe('studies end to end (B1 only, tiny task subset)', () => {
  const ctx = context();
  afterAll(() => rmSync(ctx.resultsDir, { recursive: true, force: true }));

  it('are registered', () => {
    expect(STUDIES.map((s) => s.id)).toEqual(expect.arrayContaining(['scaling', 'adversarial', 'prompt-caching']));
  });

  it('scaling: rho falls and tool tokens grow with N; the table carries the fracture line', async () => {
    const [table] = await createScalingStudy({ pipelines: b1, sizes: [30, 60, 120], maxTasks: 1 }).run(ctx);
    expect(table!.id).toBe('scaling');
    expect(table!.rows.map((r) => r.n)).toEqual([30, 60, 120]);
    const rho = table!.rows.map((r) => r.rho as number);
    const tools = table!.rows.map((r) => r.toolTokens as number);
    expect(rho[0]).toBeGreaterThan(rho[1]!);
    expect(rho[1]).toBeGreaterThan(rho[2]!);
    expect(tools[2]).toBeGreaterThan(tools[1]!);
    expect(tools[1]).toBeGreaterThan(tools[0]!);
    // At N = 120 B1's tool tokens are the full testbed's ≈ 47.7k.
    expect(tools[2]).toBeGreaterThan(46_000);
    expect(tools[2]).toBeLessThan(49_500);
    for (const c of table!.columns.filter((c) => ['toolTokens', 'rho'].includes(c.key))) expect(c.kind).toBe('measured');
    expect(table!.notes!.join(' ')).toMatch(/B1 Full-Schema: (crosses|rho already below) rho = 0\.3/);
  });

  it('scaling: the run retriever up to the dense limit; above it an encoder-free retriever, named in the table', async () => {
    const b3 = PIPELINES.filter((p) => p.id === 'b3-simple-retrieval');
    // A TF-IDF run encoder keeps the paper-form path free of the model; N = 250 is above --quick's dense limit (120).
    const encoder = createTfidfEncoder({ corpus: tfidfCorpus(ctx.catalog) });
    // The run's --retriever reaches the pipelines the study runs itself (they had the default, learned, whatever it was).
    const [table] = await createScalingStudy({ pipelines: b3, sizes: [120, 250], maxTasks: 1 }).run({
      ...ctx,
      encoder,
      retriever: 'bm25:plain',
    });
    expect(table!.rows.map((r) => [r.n, r.retriever])).toEqual([
      [120, 'bm25:plain'],
      [250, 'bm25'],
    ]);
    expect(table!.notes!.join(' ')).toMatch(/N ∈ \{250\}: no pretrained encoder .*bm25 for the retriever-form rows/);
    for (const r of table!.rows) expect(r.msPerTurn).toBeGreaterThan(0);
  });

  it('the pipelines a study runs itself get the run retriever (pipelineContext)', () => {
    expect(pipelineContext({ ...ctx, retriever: 'bm25:plain' }, ctx.catalog, ctx.resultsDir).retriever).toBe('bm25:plain');
    expect(pipelineContext(ctx, ctx.catalog, ctx.resultsDir).retriever).toBeUndefined(); // the default
  });

  it('adversarial: B1 puts all 50 payloads in every prompt; projections are marked', async () => {
    const [table] = await createAdversarialStudy({ pipelines: b1, tasks: { single: 3, multi: 1, long: 0 } }).run(ctx);
    const row = table!.rows[0]!;
    expect(row.payloadPerTurn).toBe(50);
    expect(row.distinctPayload).toBe(50);
    expect(row.turnsWithPayload).toBe(100);
    expect(row.tpaPerAttack).toBeCloseTo(36.5, 5);
    expect(table!.columns.filter((c) => c.kind === 'projected').map((c) => c.key)).toEqual([
      'tpaPerAttack',
      'tpaPerAttackFragment',
      'turnCompromise',
    ]);
    expect(row.pubTpa).toBe(38);
  });

  it('prompt-caching: B1 re-sends one stable prefix, so most of the prompt is cacheable', async () => {
    const [table] = await createPromptCachingStudy({ pipelines: b1 }).run(ctx);
    const row = table!.rows[0]!;
    expect(row.turns).toBe(30);
    expect(row.hitRate as number).toBeCloseTo((100 * 29) / 30, 5);
    expect(row.cachedShare as number).toBeGreaterThan(85);
    expect(row.pubShare).toBe(22);
  });
});

describe('prompt-caching on the methods own runs', () => {
  // The sessions (long tasks, one over 30 turns) among the other tasks, in the order the bench drives them.
  const entries = PIPELINES.filter((p) =>
    ['b1-full-schema', 'b2-static-pruning', 'b4-cli-lazy', 'anthropic-tool-search-regex', 'code-mode-files'].includes(p.id),
  );
  const ctx = syntheticStudyContext((all) => all.slice(418, 430), entries, { quick: false });
  afterAll(() => rmSync(ctx.resultsDir, { recursive: true, force: true }));

  it('what the bench watches of each run gives the table the study gets by driving the methods itself', async () => {
    expect(ctx.tasks.filter((t) => t.kind === 'long').map((t) => t.turns.length)).toContain(32);
    const study = createPromptCachingStudy();
    const perPipeline = new Map<string, unknown>();
    for (const entry of entries) {
      const watcher = study.watchTurns!({ entry, tasks: ctx.tasks, quick: ctx.quick, tokens: ctx.tokens })!;
      const pipeline = entry.create();
      await pipeline.prepare?.(pipelineContext(ctx, ctx.catalog, join(ctx.resultsDir, entry.id)));
      await runPipeline(pipeline, ctx.tasks, { catalog: ctx.catalog, tokens: ctx.tokens, seed: 42, onTurn: (t) => watcher.onTurn(t) });
      perPipeline.set(entry.id, watcher.finish());
    }
    const watched = await study.run({ ...ctx, perPipeline });
    const driven = await study.run(ctx);
    expect(watched[0]!.rows.map((r) => r.turns)).toEqual(entries.map(() => 30 + 29 + 16 + 24 + 21));
    expect(watched).toEqual(driven);
  });
});
