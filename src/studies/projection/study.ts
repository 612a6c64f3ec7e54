import type { TurnRecord } from '../../measure/run-pipeline.ts';
import type { Study, StudyContext } from '../types.ts';
import type { PipelineSummary } from '../../measure/summarize.ts';
import type { PipelineEntry } from '../../pipelines/types.ts';
import type { Table } from '../../table/table.ts';
import type { PipelineSettings } from '../../pipelines/types.ts';
import { DrawCache } from '../../sim/projection/draws.ts';
import { PROJECTION_PARAMS, SENSITIVITY_KEYS, type ProjectionParams } from '../../sim/projection/params.ts';
import { preconditionViolations } from '../../sim/projection/preconditions.ts';
import { projectPipeline, type ProjectionResult } from '../../sim/projection/project.ts';
import { sensitivityAnalysis } from '../../sim/projection/sensitivity.ts';
import {
  ablationSuccessTable,
  failureTable,
  measuredVsProjectedTable,
  projectedMainTable,
  projectedQualityTable,
  projectionParamsTable,
  sensitivityTable,
  type ProjectedMethod,
} from './tables.ts';
import { b4DiscoveryTable, selectionModelTable } from './selection-tables.ts';
import type { ProjectionTurn } from '../../sim/projection/turn-model.ts';

/** The pipeline whose projection the ablation variants are compared with. */
const ABLATION_REFERENCE = 'tool-attention';

/**
 * Whether a pipeline's recorded settings (its describe(), also written to run.json) declare a
 * hallucination gate. The only thing the projection reads from a pipeline besides its turns.
 */
export function hasHallucinationGate(settings: PipelineSettings | undefined): boolean {
  return settings?.gates?.hallucination === true;
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
  readsPipelineResults: true,
  run: (ctx) => runProjectionStudy(ctx),
};

export async function runProjectionStudy(
  ctx: StudyContext,
  params: ProjectionParams = PROJECTION_PARAMS,
  /** Pipelines and their groups, in table order (those the run ran, by default). */
  entries: readonly Pick<PipelineEntry, 'id' | 'group' | 'ablationOf'>[] = ctx.pipelines,
): Promise<Table[]> {
  const scopesOf = scopesLookup(ctx);
  const inputsOf = (group: 'main' | 'ablation') =>
    entries.filter((e) => e.group === group && (ctx.records.get(e.id)?.length ?? 0) > 0).map((e) => input(ctx, e.id, scopesOf));
  const main = inputsOf('main');
  const ablationOf = new Map(entries.map((e) => [e.id, e.ablationOf]));
  // Labelled ablations (B4 oracle) are projected and shown, never ranked against the methods.
  const ranked = main.filter((inp) => !ablationOf.get(inp.id));
  if (main.length === 0) {
    ctx.log('projection: no main-group pipeline records; skipped');
    return [];
  }
  const draws = new DrawCache();
  // Each projection after a turn of the event loop: this study runs for seconds, and on the
  // bench's main lane a long synchronous stretch keeps the worker lanes' "done" messages (and
  // their next units) waiting.
  const project = async (inp: Input, p: ProjectionParams, bootstrap: boolean) => {
    await new Promise((resolve) => setImmediate(resolve));
    return projectPipeline(inp.records, p, ctx.seed, { hallucinationGate: inp.gate, violations: inp.violations, bootstrap, draws });
  };
  const projectAll = async (inputs: readonly Input[], p: ProjectionParams, bootstrap: boolean) => {
    const out: ProjectionResult[] = [];
    for (const inp of inputs) out.push(await project(inp, p, bootstrap));
    return out;
  };
  const method = (inp: Input, result: ProjectionResult): ProjectedMethod => ({
    id: inp.id,
    label: inp.label,
    result,
    summary: inp.summary,
  });

  const mainResults = await projectAll(main, params, true);
  const mainMethods = main.map((inp, i) => method(inp, mainResults[i]!));
  const tables = [
    projectionParamsTable(params),
    projectedMainTable(mainMethods),
    projectedQualityTable(mainMethods),
    measuredVsProjectedTable(),
  ];

  if (ranked.length > 1) {
    const rows = await sensitivityAnalysis(
      async (p) => {
        const results = await projectAll(ranked, p, false);
        return new Map(ranked.map((inp, i) => [inp.id, results[i]!]));
      },
      params,
      SENSITIVITY_KEYS,
    );
    tables.push(sensitivityTable(rows, codesOf(ctx)));
  }
  tables.push(failureTable(mainMethods), selectionModelTable(params));
  if (mainMethods.some((m) => m.summary?.settings.discovery)) tables.push(b4DiscoveryTable(mainMethods, discoveryCallsPerToolTurn(main)));

  const ablation = inputsOf('ablation');
  if (ablation.length) {
    // Compare like with like: the reference projected on the seeds the variants ran on.
    const seeds = new Set(ablation.flatMap((a) => a.records.map((r) => r.seed)));
    const ref = main.find((m) => m.id === ABLATION_REFERENCE);
    const sameSeeds = ref && { ...ref, records: ref.records.filter((r) => seeds.has(r.seed)) };
    const reference = sameSeeds && method(sameSeeds, await project(sameSeeds, params, true));
    const ablationResults = await projectAll(ablation, params, true);
    tables.push(
      ablationSuccessTable(
        ablation.map((inp, i) => method(inp, ablationResults[i]!)),
        reference,
      ),
    );
  }

  for (const m of mainMethods) {
    const r = m.result;
    ctx.log(
      `projection ${(codesOf(ctx).get(m.id) ?? m.id).padEnd(4)} success ${(100 * r.successRate.mean).toFixed(1)}%  P50 ${r.p50.toFixed(2)} s  P95 ${r.p95.toFixed(2)} s  $${r.costPerTask.mean.toFixed(4)}/task  quality ${r.quality.mean.mean.toFixed(2)}${r.hallucinationGate ? '  (gate)' : ''}`,
    );
  }
  return tables;
}

/** Mean discovery calls (e.g. --list, --help) per turn that needs a tool, per pipeline. */
function discoveryCallsPerToolTurn(inputs: readonly Input[]): Map<string, number> {
  return new Map(
    inputs.map((inp) => {
      const toolTurns = inp.records.filter((r) => r.needed > 0);
      return [inp.id, toolTurns.reduce((n, r) => n + r.discoveryCalls, 0) / Math.max(1, toolTurns.length)];
    }),
  );
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

/** Initial auth scopes of a task, from the task set the bench ran for its seed. */
function scopesLookup(ctx: StudyContext): ScopesOf {
  const bySeed = new Map(ctx.taskSets.map((set) => [set.seed, new Map(set.tasks.map((t) => [t.id, t.initialState.authScopes]))]));
  return (seed: number, taskId: string) => bySeed.get(seed)?.get(taskId);
}

/** Short codes of the pipelines that ran (the registry's `code`, else the id). */
function codesOf(ctx: StudyContext): Map<string, string> {
  return new Map(ctx.pipelines.map((p) => [p.id, p.code ?? p.id]));
}
