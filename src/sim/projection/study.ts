import type { TurnRecord } from '../../bench/run-pipeline.ts';
import type { Study, StudyContext } from '../../bench/studies.ts';
import type { PipelineSummary } from '../../bench/summarize.ts';
import { SYNTHETIC_CATALOG_NAME } from '../../catalog/generate.ts';
import { tasksForSeed } from '../../commands/prepare-inputs.ts';
import { PIPELINES, type PipelineEntry } from '../../pipelines/registry.ts';
import type { Table } from '../../report/table.ts';
import { DrawCache } from './draws.ts';
import { PROJECTION_PARAMS, SENSITIVITY_KEYS, type ProjectionParams } from './params.ts';
import { preconditionViolations } from './preconditions.ts';
import { projectPipeline, type ProjectionResult } from './project.ts';
import { sensitivityAnalysis } from './sensitivity.ts';
import {
  ablationSuccessTable,
  failureTable,
  measuredVsProjectedTable,
  projectedMainTable,
  projectedQualityTable,
  projectionParamsTable,
  sensitivityTable,
  shortLabel,
  type ProjectedMethod,
} from './tables.ts';
import type { ProjectionTurn } from './turn-model.ts';

/** The pipeline whose projection the ablation variants are compared with. */
export const ABLATION_REFERENCE = 'tool-attention';

/**
 * Whether a pipeline's recorded settings (its describe(), also written to run.json) declare a
 * hallucination gate. The only thing the projection reads from a pipeline besides its turns.
 */
export function hasHallucinationGate(settings: Record<string, unknown> | undefined): boolean {
  return settings?.hallucinationGate === true;
}

interface Input {
  id: string;
  label: string;
  records: readonly TurnRecord[];
  summary?: PipelineSummary;
  gate: boolean;
  violations: (t: ProjectionTurn) => number;
}

/** The `projection` study: projected Tables 3 and 4, sensitivity, failure causes, ablation success. */
export const projectionStudy: Study = {
  id: 'projection',
  run: (ctx) => runProjectionStudy(ctx),
};

export async function runProjectionStudy(
  ctx: StudyContext,
  params: ProjectionParams = PROJECTION_PARAMS,
  /** Pipelines and their groups, in table order (the registry's by default). */
  entries: readonly Pick<PipelineEntry, 'id' | 'group'>[] = PIPELINES,
): Promise<Table[]> {
  const scopesOf = scopesLookup(ctx);
  const inputsOf = (group: 'main' | 'ablation') =>
    entries.filter((e) => e.group === group && (ctx.records.get(e.id)?.length ?? 0) > 0).map((e) => input(ctx, e.id, scopesOf));
  const main = inputsOf('main');
  if (main.length === 0) {
    ctx.log('projection: no main-group pipeline records; skipped');
    return [];
  }
  const draws = new DrawCache();
  const project = (inp: Input, p: ProjectionParams, bootstrap: boolean) =>
    projectPipeline(inp.records, p, ctx.seed, { hallucinationGate: inp.gate, violations: inp.violations, bootstrap, draws });
  const method = (inp: Input, result: ProjectionResult): ProjectedMethod => ({ id: inp.id, label: inp.label, result, summary: inp.summary });

  const mainMethods = main.map((inp) => method(inp, project(inp, params, true)));
  const tables = [projectionParamsTable(params), projectedMainTable(mainMethods), projectedQualityTable(mainMethods), measuredVsProjectedTable()];

  if (main.length > 1) {
    const rows = sensitivityAnalysis((p) => new Map(main.map((inp) => [inp.id, project(inp, p, false)])), params, SENSITIVITY_KEYS);
    tables.push(sensitivityTable(rows, new Map(main.map((m) => [m.id, m.label]))));
  }
  tables.push(failureTable(mainMethods));

  const ablation = inputsOf('ablation');
  if (ablation.length) {
    // Compare like with like: the reference projected on the seeds the variants ran on.
    const seeds = new Set(ablation.flatMap((a) => a.records.map((r) => r.seed)));
    const ref = main.find((m) => m.id === ABLATION_REFERENCE);
    const sameSeeds = ref && { ...ref, records: ref.records.filter((r) => seeds.has(r.seed)) };
    const reference = sameSeeds && method(sameSeeds, project(sameSeeds, params, true));
    tables.push(ablationSuccessTable(ablation.map((inp) => method(inp, project(inp, params, true))), reference));
  }

  for (const m of mainMethods) {
    const r = m.result;
    ctx.log(
      `projection ${shortLabel(m.label).padEnd(4)} success ${(100 * r.successRate.mean).toFixed(1)}%  P50 ${r.p50.toFixed(2)} s  P95 ${r.p95.toFixed(2)} s  $${r.costPerTask.mean.toFixed(4)}/task  quality ${r.quality.mean.mean.toFixed(2)}${r.hallucinationGate ? '  (gate)' : ''}`,
    );
  }
  return tables;
}

type ScopesOf = (seed: number, taskId: string) => readonly string[] | undefined;

function input(ctx: StudyContext, id: string, scopesOf: ScopesOf): Input {
  const records = ctx.records.get(id)!;
  const summary = ctx.summaries.find((s) => s.pipeline === id);
  const violations = preconditionViolations(records, ctx.catalog, scopesOf);
  return {
    id,
    label: summary?.label ?? id,
    records,
    summary,
    gate: hasHallucinationGate(summary?.settings),
    violations: (t) => violations.get(t as TurnRecord) ?? 0,
  };
}

/**
 * Initial auth scopes of a task: the run's own task set for its seed; for the synthetic
 * catalog, other bench seeds' task sets are regenerated in memory exactly as the bench did.
 */
function scopesLookup(ctx: StudyContext): ScopesOf {
  const bySeed = new Map<number, Map<string, readonly string[]> | null>();
  bySeed.set(ctx.seed, new Map(ctx.tasks.map((t) => [t.id, t.initialState.authScopes])));
  return (seed: number, taskId: string) => {
    if (!bySeed.has(seed)) {
      bySeed.set(seed, ctx.catalog.name === SYNTHETIC_CATALOG_NAME ? new Map(tasksForSeed(seed).map((t) => [t.id, t.initialState.authScopes])) : null);
    }
    return bySeed.get(seed)?.get(taskId);
  };
}
