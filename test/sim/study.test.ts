import { describe, expect, it } from 'vitest';
import type { TurnRecord } from '../../src/measure/run-pipeline.ts';
import type { StudyContext } from '../../src/studies/types.ts';
import { STUDIES } from '../../src/studies/registry.ts';
import { summarize } from '../../src/measure/summarize.ts';
import type { Catalog } from '../../src/catalog/types.ts';
import type { PipelineSettings } from '../../src/pipelines/types.ts';
import { PIPELINES } from '../../src/pipelines/registry.ts';
import { PUBLISHED_MAIN } from '../../src/reference/published.ts';
import { billedAs, PROJECTION_PARAMS } from '../../src/sim/projection/params.ts';
import { projectPipeline } from '../../src/sim/projection/project.ts';
import { hasHallucinationGate, projectionStudy, runProjectionStudy } from '../../src/studies/projection/study.ts';
import { tasks } from './records.ts';

const mainIds = PIPELINES.filter((p) => p.group === 'main').map((p) => p.id);

const catalog: Catalog = { name: 'hand-made', source: 'test', servers: ['srv'], tools: [] };

function context(records: Map<string, TurnRecord[]>, settings: Record<string, PipelineSettings>): StudyContext {
  return {
    root: '/tmp',
    catalog,
    tasks: [],
    taskSets: [],
    calibrationTasks: [],
    historyTasks: [],
    pipelines: PIPELINES,
    tokens: undefined as never,
    seed: 42,
    quick: true,
    resultsDir: '/tmp',
    records,
    summaries: [...records].map(([id, recs]) => summarize(recs, `Label ${id}`, settings[id] ?? { details: {} }, 42)),
    log: () => {},
  };
}

describe('the projection study', () => {
  it('is registered', () => {
    expect(STUDIES).toContain(projectionStudy);
  });

  it('reads the hallucination gate from the recorded settings only', () => {
    expect(hasHallucinationGate({ gates: { hallucination: true, preconditions: true }, details: {} })).toBe(true);
    expect(hasHallucinationGate({ gates: { hallucination: false, preconditions: true }, details: { hallucinationGate: true } })).toBe(
      false,
    );
    expect(hasHallucinationGate(undefined)).toBe(false);
  });

  it.skipIf(mainIds.length < 2)("builds the projected tables from the main pipelines' records", async () => {
    const [a, b] = mainIds as [string, string];
    const recsA = tasks(60, [{ toolTokens: 40_000 }, { toolTokens: 40_000 }], { pipeline: a, ambiguousEvery: 7 });
    const recsB = tasks(60, [{ toolTokens: 1500, present: 0, listed: 1 }, { toolTokens: 1500 }], { pipeline: b, ambiguousEvery: 7 });
    const ctx = context(
      new Map([
        [a, recsA],
        [b, recsB],
      ]),
      { [b]: { gates: { hallucination: true, preconditions: false }, details: {} } },
    );
    const tables = await runProjectionStudy(ctx);
    expect(tables.map((t) => t.id)).toEqual([
      'projection-parameters',
      'table3-projected',
      'table4-projected',
      'projection-measured-vs-projected',
      'projection-sensitivity',
      'projection-failures',
      'projection-selection-model',
    ]);

    const t3 = tables[1]!;
    for (const key of ['success', 'p50', 'p95', 'cost']) expect(t3.columns.find((c) => c.key === key)!.kind).toBe('projected');
    for (const key of ['pubSuccess', 'pubP50', 'pubP95', 'pubCost']) expect(t3.columns.find((c) => c.key === key)!.kind).toBe('published');

    // The projected cells are the projection of the records (gate as recorded), the published ones PUBLISHED_MAIN.
    const gated = projectPipeline(recsB, PROJECTION_PARAMS, 42, { hallucinationGate: true });
    const ungated = projectPipeline(recsB, PROJECTION_PARAMS, 42, { hallucinationGate: false });
    const rowB = t3.rows.find((r) => r.method === `Label ${b}`)!;
    expect(rowB.success).toBeCloseTo(100 * gated.successRate.mean, 12);
    expect(rowB.success).not.toBeCloseTo(100 * ungated.successRate.mean, 6);
    expect(rowB.cost).toBeCloseTo(gated.costPerTask.mean, 12);
    // Beside it, the same calls billed as OpenAI bills: another figure from the same turns.
    const openai = projectPipeline(recsB, billedAs(PROJECTION_PARAMS, 'openai'), 42, { hallucinationGate: true });
    expect(t3.columns.find((c) => c.key === 'costOpenAI')!.kind).toBe('projected');
    expect(rowB.costOpenAI).toBeCloseTo(openai.costPerTask.mean, 12);
    expect(rowB.costOpenAI).not.toBeCloseTo(gated.costPerTask.mean, 6);
    expect(rowB.pubSuccess).toBe(PUBLISHED_MAIN[b]?.success);

    const failures = tables[5]!;
    const rowA = failures.rows.find((r) => r.method === `Label ${a}`)!;
    const causes = Object.entries(rowA)
      .filter(([k]) => k.startsWith('c_'))
      .reduce((s, [, v]) => s + (v as number), 0);
    expect(causes).toBeCloseTo(rowA.failed as number, 9);
  });

  it("ranks the papers' methods only in the sensitivity table (code execution and host search have their own tables)", async () => {
    const ids = ['b1-full-schema', 'tool-attention', 'code-mode', 'anthropic-tool-search-bm25'];
    const records = new Map(ids.map((id, i) => [id, tasks(30, [{ toolTokens: 2000 + 1000 * i }], { pipeline: id })]));
    const tables = await runProjectionStudy(context(records, {}));
    const sensitivity = tables.find((t) => t.id === 'projection-sensitivity')!;
    const codes = new Map(PIPELINES.map((p) => [p.id, p.code ?? p.id]));
    const ranked = String(sensitivity.rows[0]!.success).split(' > ');
    expect(ranked.sort()).toEqual([codes.get('b1-full-schema'), codes.get('tool-attention')].sort());
  });

  it('adds a Table 5-style success column for ablation-group pipelines, against Tool Attention', async () => {
    const full = tasks(80, [{ toolTokens: 2500, present: 0, listed: 1 }, { toolTokens: 2500 }], { pipeline: 'tool-attention' });
    const noGate = full.map((r) => ({ ...r, pipeline: 'ta-no-gate' }));
    const ctx = context(
      new Map([
        ['tool-attention', full],
        ['ta-no-gate', noGate],
      ]),
      {
        'tool-attention': { gates: { hallucination: true, preconditions: true }, details: {} },
        'ta-no-gate': { gates: { hallucination: false, preconditions: true }, details: {} },
      },
    );
    const entries = [
      { id: 'tool-attention', group: 'main' as const },
      { id: 'ta-no-gate', group: 'ablation' as const },
    ];
    const tables = await runProjectionStudy(ctx, PROJECTION_PARAMS, entries);
    expect(tables.map((t) => t.id)).not.toContain('projection-sensitivity'); // one main method: nothing to rank
    const ablation = tables.find((t) => t.id === 'projection-ablation-success')!;
    expect(ablation.rows.map((r) => [r.variant, r.gate])).toEqual([
      ['Label tool-attention', 'yes'],
      ['Label ta-no-gate', 'no'],
    ]);
    // Same measured turns: the only difference is the gate, which this workload needs.
    expect(ablation.rows[0]!.delta).toBe(0);
    expect(ablation.rows[1]!.delta as number).toBeLessThan(0);
    expect(ablation.rows[1]!.success).toBeCloseTo(100 * projectPipeline(noGate, PROJECTION_PARAMS, 42).successRate.mean, 12);
  });

  it.skipIf(mainIds.length < 2)(
    "gives the same tables from the per-pipeline step's projections (the bench runs it in the pipelines' lanes)",
    async () => {
      const [a, b] = mainIds as [string, string];
      const ablation = PIPELINES.find((p) => p.group === 'ablation')!;
      const records = new Map([
        [a, tasks(40, [{ toolTokens: 30_000 }, { toolTokens: 30_000 }], { pipeline: a, ambiguousEvery: 5 })],
        [b, tasks(40, [{ toolTokens: 1500, present: 0, listed: 1 }, { toolTokens: 1500 }], { pipeline: b })],
        ['tool-attention', tasks(40, [{ toolTokens: 2500, present: 0, listed: 1 }], { pipeline: 'tool-attention' })],
        [ablation.id, tasks(40, [{ toolTokens: 2500, present: 0, listed: 1 }], { pipeline: ablation.id })],
      ]);
      const ctx = {
        ...context(records, { [b]: { gates: { hallucination: true, preconditions: false }, details: {} } }),
        taskSets: [{ seed: 42, tasks: [] }],
      };
      const direct = await runProjectionStudy(ctx);
      const perPipeline = new Map<string, unknown>();
      for (const [id, recs] of records)
        perPipeline.set(
          id,
          await projectionStudy.perPipeline!({
            ...ctx,
            entry: PIPELINES.find((p) => p.id === id)!,
            records: recs,
            summary: ctx.summaries.find((s) => s.pipeline === id)!,
          }),
        );
      expect(JSON.stringify(await runProjectionStudy({ ...ctx, perPipeline }))).toBe(JSON.stringify(direct));
      expect(direct.map((t) => t.id)).toContain('projection-ablation-success');
      expect(direct.map((t) => t.id)).toContain('projection-sensitivity');
      // And the given projections are what the tables read: a changed one shows.
      const changed = new Map(perPipeline);
      const own = (changed.get(a) as { own: { successRate: { mean: number } } }).own;
      changed.set(a, { ...(changed.get(a) as object), own: { ...own, successRate: { ...own.successRate, mean: 0.123456 } } });
      expect(JSON.stringify(await runProjectionStudy({ ...ctx, perPipeline: changed }))).not.toBe(JSON.stringify(direct));
    },
  );

  it('skips without main-group records', async () => {
    expect(await runProjectionStudy(context(new Map(), {}))).toEqual([]);
  });
});
