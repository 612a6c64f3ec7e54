import type { TurnRecord } from '../../measure/run-pipeline.ts';
import { defineStudy, type Study, type StudyContext, type TaskSet } from '../types.ts';
import type { PipelineSummary } from '../../measure/summarize.ts';
import type { PipelineEntry } from '../../pipelines/types.ts';
import type { Table } from '../../table/table.ts';
import type { PipelineSettings } from '../../pipelines/types.ts';
import { DrawCache } from '../../sim/projection/draws.ts';
import { taskSetsRunBy } from '../common.ts';
import { billedAs, PROJECTION_PARAMS, SENSITIVITY_KEYS, type ProjectionParams } from '../../sim/projection/params.ts';
import { preconditionViolations } from '../../sim/projection/preconditions.ts';
import { projectPipeline, type ProjectionResult } from '../../sim/projection/project.ts';
import { sensitivityAnalysis, sensitivityParamSets } from '../../sim/projection/sensitivity.ts';
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
import { HOST_SEARCH_BESIDE, hostSearchTable } from './host-search-table.ts';
import { recallBands } from './search-band.ts';
import { SEARCH_BAND_IDS } from '../../pipelines/search-bands.ts';
import { HOST_SEARCH_IDS, isHostSearch } from '../../pipelines/host-search/entries.ts';
import { isCodeExecution } from '../../pipelines/code-mode/entries.ts';
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

/**
 * One pipeline's projections at the default parameters: its own (with bootstrap intervals;
 * main and ablation pipelines), one per sensitivity parameter set (ranked methods: main, not a
 * labelled ablation), and for the ablations' reference, itself on the seeds the ablations ran on.
 */
interface PipelineProjections {
  own?: ProjectionResult;
  /** Main pipelines: their own, billed as OpenAI bills (Table 3's OpenAI column). */
  openai?: ProjectionResult;
  sensitivity?: ProjectionResult[];
  reference?: { seeds: number[]; result: ProjectionResult };
}

/** The seeds the ablation pipelines run on. */
function ablationSeeds(taskSets: readonly TaskSet[]): number[] {
  return taskSetsRunBy({ group: 'ablation' }, taskSets).map((t) => t.seed);
}

// Random draws shared by every projection in this thread (a memo: results are the same without it).
const threadDraws = new DrawCache();

/** Each projection after a turn of the event loop: a lane that projects for seconds still hears from the other lanes. */
async function projectAfterYield(
  inp: Input,
  p: ProjectionParams,
  seed: number,
  bootstrap: boolean,
  draws: DrawCache,
): Promise<ProjectionResult> {
  await new Promise((resolve) => setImmediate(resolve));
  return projectPipeline(inp.records, p, seed, { hallucinationGate: inp.gate, violations: inp.violations, bootstrap, draws });
}

/** What PipelineProjections holds for one pipeline, computed here (the per-pipeline step, or run when the bench gave none). */
async function projectionsOf(
  inp: Input,
  entry: Pick<PipelineEntry, 'group' | 'ablationOf'>,
  seed: number,
  referenceSeeds: readonly number[],
  draws: DrawCache,
  sensitivity = true,
): Promise<PipelineProjections> {
  const out: PipelineProjections = {};
  if (entry.group !== 'main' && entry.group !== 'ablation') return out;
  out.own = await projectAfterYield(inp, PROJECTION_PARAMS, seed, true, draws);
  if (entry.group === 'main') out.openai = await projectAfterYield(inp, billedAs(PROJECTION_PARAMS, 'openai'), seed, false, draws);
  if (sensitivity && entry.group === 'main' && !entry.ablationOf && !isHostSearch(inp.id) && !isCodeExecution(inp.id)) {
    out.sensitivity = [];
    for (const set of sensitivityParamSets(PROJECTION_PARAMS, SENSITIVITY_KEYS))
      out.sensitivity.push(await projectAfterYield(inp, set.params, seed, false, draws));
  }
  if (inp.id === ABLATION_REFERENCE) {
    const keep = new Set(referenceSeeds);
    const records = inp.records.filter((r) => keep.has(r.seed));
    out.reference = {
      seeds: [...referenceSeeds],
      result: await projectAfterYield({ ...inp, records }, PROJECTION_PARAMS, seed, true, draws),
    };
  }
  return out;
}

/** The `projection` study: projected Tables 3 and 4, sensitivity, failure causes, ablation success. */
export const projectionStudy: Study = defineStudy(import.meta.url, {
  id: 'projection',
  description:
    'projected success, latency, cost and reasoning quality † of each method from its measured turns, with the sensitivity and failure analyses',
  readsPipelineResults: true,
  needsTasks: true,
  perPipeline: async (ctx) => {
    const inp = projectionInput(ctx.entry.id, ctx.records, ctx.summary, ctx.catalog, scopesLookup(ctx));
    return projectionsOf(inp, ctx.entry, ctx.seed, ablationSeeds(ctx.taskSets), threadDraws);
  },
  run: (ctx) => runProjectionStudy(ctx),
});

export async function runProjectionStudy(
  ctx: StudyContext,
  params: ProjectionParams = PROJECTION_PARAMS,
  /** Pipelines and their groups, in table order (those the run ran, by default). */
  entries: readonly Pick<PipelineEntry, 'id' | 'group' | 'ablationOf'>[] = ctx.pipelines,
  /** The sensitivity table (49 more projections per ranked method); a caller that wants Tables 3 and 4 only turns it off. */
  sensitivity = true,
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
  const project = (inp: Input, p: ProjectionParams, bootstrap: boolean) => projectAfterYield(inp, p, ctx.seed, bootstrap, draws);
  // What the per-pipeline step computed in the pipelines' lanes, at the default parameters;
  // else computed here now, by the same function. Other parameters (a caller's): none.
  const atDefaults = params === PROJECTION_PARAMS;
  const ablation = inputsOf('ablation');
  const referenceSeeds = [...new Set(ablation.flatMap((a) => a.records.map((r) => r.seed)))];
  const computed = new Map<string, Promise<PipelineProjections>>();
  const projections = (inp: Input): Promise<PipelineProjections> => {
    let pre = computed.get(inp.id);
    if (!pre) {
      const given = ctx.perPipeline?.get(inp.id) as PipelineProjections | undefined;
      const entry = entries.find((e) => e.id === inp.id)!;
      pre = !atDefaults
        ? Promise.resolve({})
        : given
          ? Promise.resolve(given)
          : projectionsOf(inp, entry, ctx.seed, referenceSeeds, draws, sensitivity);
      computed.set(inp.id, pre);
    }
    return pre;
  };
  const own = async (inp: Input) => (await projections(inp)).own ?? project(inp, params, true);
  const method = projectedMethod;

  const openaiBill = async (inp: Input) => (await projections(inp)).openai ?? project(inp, billedAs(params, 'openai'), false);
  const mainResults: ProjectionResult[] = [];
  const openaiResults: ProjectionResult[] = [];
  for (const inp of main) {
    mainResults.push(await own(inp));
    openaiResults.push(await openaiBill(inp));
  }
  const mainMethods = main.map((inp, i) => ({ ...method(inp, mainResults[i]!), openai: openaiResults[i]! }));
  const tables = [
    projectionParamsTable(params),
    projectedMainTable(mainMethods),
    projectedQualityTable(mainMethods),
    measuredVsProjectedTable(),
  ];

  // The sensitivity table ranks the papers' methods; the host searches and the code-execution
  // methods are ranked in their own tables.
  const sensitive = ranked.filter((inp) => !isHostSearch(inp.id) && !isCodeExecution(inp.id));
  if (sensitivity && sensitive.length > 1) {
    const rows = await sensitivityAnalysis(
      async (p, index) => {
        const results: ProjectionResult[] = [];
        for (const inp of sensitive) results.push((await projections(inp)).sensitivity?.[index] ?? (await project(inp, p, false)));
        return new Map(sensitive.map((inp, i) => [inp.id, results[i]!]));
      },
      params,
      SENSITIVITY_KEYS,
    );
    tables.push(sensitivityTable(rows, codesOf(ctx)));
  }
  tables.push(failureTable(mainMethods), selectionModelTable(params));
  const searchIds = SEARCH_BAND_IDS.filter((id) => (ctx.records.get(id)?.length ?? 0) > 0);
  const hostSearch = hostSearchTable(
    [...mainMethods, ...(await besideMethods(ctx, scopesOf, entries, (inp) => project(inp, params, true), method))],
    ctx.records,
    ctx.catalog.name,
    searchIds.length
      ? await recallBands(ctx, searchIds, async (id, records) => {
          const summary = ctx.summaries.find((x) => x.pipeline === id);
          return (await project(projectionInput(id, records, summary, ctx.catalog, scopesOf), params, false)).successRate.mean;
        })
      : undefined,
  );
  if (hostSearch) tables.push(hostSearch);
  if (mainMethods.some((m) => m.summary?.settings.discovery)) tables.push(b4DiscoveryTable(mainMethods, discoveryCallsPerToolTurn(main)));

  if (ablation.length) {
    // Compare like with like: the reference projected on the seeds the variants ran on.
    const ref = main.find((m) => m.id === ABLATION_REFERENCE);
    let reference: ProjectedMethod | undefined;
    if (ref) {
      const given = (await projections(ref)).reference;
      const sameSeeds = { ...ref, records: ref.records.filter((r) => referenceSeeds.includes(r.seed)) };
      const result =
        given && given.seeds.length === referenceSeeds.length && given.seeds.every((s) => referenceSeeds.includes(s))
          ? given.result
          : await project(sameSeeds, params, true);
      reference = method(sameSeeds, result);
    }
    const ablationResults: ProjectionResult[] = [];
    for (const inp of ablation) ablationResults.push(await own(inp));
    tables.push(
      ablationSuccessTable(
        ablation.map((inp, i) => method(inp, ablationResults[i]!)),
        reference,
      ),
    );
  }

  logProjections(ctx, mainMethods);
  return tables;
}

/** A method's row of the projected tables: its input's names and summary, and its projection. */
function projectedMethod(inp: Input, result: ProjectionResult): ProjectedMethod {
  return { id: inp.id, label: inp.label, result, summary: inp.summary };
}

/** One line per main method: its projected success, latency, cost and quality. */
function logProjections(ctx: StudyContext, methods: readonly ProjectedMethod[]): void {
  for (const m of methods) {
    const r = m.result;
    ctx.log(
      `projection ${(codesOf(ctx).get(m.id) ?? m.id).padEnd(4)} success ${(100 * r.successRate.mean).toFixed(1)}%  P50 ${r.p50.toFixed(2)} s  P95 ${r.p95.toFixed(2)} s  $${r.costPerTask.mean.toFixed(4)}/task  quality ${r.quality.mean.mean.toFixed(2)}${r.hallucinationGate ? '  (gate)' : ''}`,
    );
  }
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

/** The host tool search table's methods outside the main group (ADOL combined), projected here when the run measured them. */
async function besideMethods(
  ctx: StudyContext,
  scopesOf: ScopesOf,
  entries: readonly Pick<PipelineEntry, 'id' | 'group'>[],
  project: (inp: Input) => Promise<ProjectionResult>,
  method: (inp: Input, result: ProjectionResult) => ProjectedMethod,
): Promise<ProjectedMethod[]> {
  const ids = HOST_SEARCH_BESIDE.filter(
    (id) => !entries.some((e) => e.id === id && e.group === 'main') && (ctx.records.get(id)?.length ?? 0) > 0,
  );
  if (!entries.some((e) => (HOST_SEARCH_IDS as readonly string[]).includes(e.id))) return [];
  const out: ProjectedMethod[] = [];
  for (const id of ids) {
    const inp = input(ctx, id, scopesOf);
    out.push(method(inp, await project(inp)));
  }
  return out;
}

function input(ctx: StudyContext, id: string, scopesOf: ScopesOf): Input {
  const summary = ctx.summaries.find((s) => s.pipeline === id);
  return projectionInput(id, ctx.records.get(id)!, summary, ctx.catalog, scopesOf);
}

/** What the projection reads of one pipeline: its records, its settings' gate, and its precondition violations. */
function projectionInput(
  id: string,
  records: readonly TurnRecord[],
  summary: PipelineSummary | undefined,
  catalog: StudyContext['catalog'],
  scopesOf: ScopesOf,
): Input {
  // Found on first use: a pipeline whose projections the bench's per-pipeline step made needs none.
  let violations: Map<TurnRecord, number> | undefined;
  return {
    id,
    label: summary?.label ?? id,
    records,
    summary,
    gate: hasHallucinationGate(summary?.settings),
    violations: (t) => (violations ??= preconditionViolations(records, catalog, scopesOf)).get(t as TurnRecord) ?? 0,
  };
}

/** Initial auth scopes of a task, from the task set the bench ran for its seed. */
function scopesLookup(ctx: Pick<StudyContext, 'taskSets'>): ScopesOf {
  const bySeed = new Map(ctx.taskSets.map((set) => [set.seed, new Map(set.tasks.map((t) => [t.id, t.initialState.authScopes]))]));
  return (seed: number, taskId: string) => bySeed.get(seed)?.get(taskId);
}

/** Short codes of the pipelines that ran (the registry's `code`, else the id). */
function codesOf(ctx: StudyContext): Map<string, string> {
  return new Map(ctx.pipelines.map((p) => [p.id, p.code ?? p.id]));
}
