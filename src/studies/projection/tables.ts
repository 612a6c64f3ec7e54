import { fewerSeedsNotes } from '../../measure/seeds-note.ts';
import { fitNotes } from '../../measure/fit-note.ts';
import type { PipelineSummary } from '../../measure/summarize.ts';
import { PUBLISHED_ABLATION, PUBLISHED_MAIN, PUBLISHED_SOURCE, TESTBED_CATALOG } from '../../reference/published.ts';
import type { Table } from '../../table/table.ts';
import type { Estimate } from '../../stats/bootstrap.ts';
import {
  BILLING,
  PROJECTION_MODEL,
  PROJECTION_PARAMS,
  SIMULATION,
  type ParamKey,
  type ProjectionParams,
} from '../../sim/projection/params.ts';
import type { ProjectionResult } from '../../sim/projection/project.ts';
import { PUBLISHED_CACHE_HIT, PUBLISHED_QUALITY, PUBLISHED_QUALITY_T30, PUBLISHED_TA_FAILURES } from '../../reference/published.ts';
import { FAILURE_CAUSES } from '../../sim/projection/simulate.ts';
import { RANK_METRICS, type SensitivityRow } from '../../sim/projection/sensitivity.ts';
import { ownValue } from '../../util/json.ts';

export interface ProjectedMethod {
  id: string;
  label: string;
  result: ProjectionResult;
  summary?: PipelineSummary;
  /** The same turns billed as OpenAI bills (BILLING.openai), when projected. */
  openai?: ProjectionResult;
}

const SIM_NOTE = `Simulated per task under ${SIMULATION.seeds} seeds (the run's seed and the next ${SIMULATION.seeds - 1}) on the task sets the method ran on; 95% CI: percentile bootstrap over tasks (${SIMULATION.bootstrapResamples.toLocaleString('en-US')} resamples).`;

/** Every projection parameter, its unit and its source. */
export function projectionParamsTable(params: ProjectionParams = PROJECTION_PARAMS): Table {
  return {
    id: 'projection-parameters',
    title: 'Projection parameters (every projected † figure follows from these and the measured turns)',
    columns: [
      { key: 'key', header: 'parameter', kind: 'label' },
      { key: 'value', header: 'value', kind: 'parameter' },
      { key: 'unit', header: 'unit', kind: 'label' },
      { key: 'source', header: 'source', kind: 'label' },
    ],
    rows: (Object.keys(params) as ParamKey[]).map((key) => ({
      key,
      value: String(params[key].value),
      unit: params[key].unit,
      source: params[key].source,
    })),
    notes: [
      `Model priced and timed: ${PROJECTION_MODEL.name} (${PROJECTION_MODEL.id}); list price date ${PROJECTION_MODEL.priceListDate}.`,
      'Reasoning factor of a turn = cliff(rho) × (1 − lengthWeight × (1 − NoLiMa(prompt tokens))); rho = (history + user + taskAllowance) / (that + tool tokens + system tokens).',
      'Long-context curve: NoLiMa (Modarressi et al., ICML 2025), GPT-4o accuracy relative to its base score at 1K–32K tokens, log2-interpolated, extrapolated past 32K.',
      'Source "assumption" means a value chosen for this projection without a measurement behind it; the sensitivity table moves the key ones ±50%.',
    ],
  };
}

/** Table 3's projected columns beside the published ones. */
export function projectedMainTable(methods: readonly ProjectedMethod[]): Table {
  return {
    id: 'table3-projected',
    title: 'Table 3 (projected part): task success, latency and cost per task',
    columns: [
      { key: 'method', header: 'method', kind: 'label' },
      { key: 'retriever', header: 'retriever', kind: 'label' },
      { key: 'toolTokens', header: 'tool tokens/turn', kind: 'measured' },
      { key: 'success', header: 'success %', kind: 'projected', digits: 1 },
      { key: 'successCi', header: '95% CI', kind: 'projected' },
      { key: 'pubSuccess', header: 'published', kind: 'published', digits: 1, publishedFor: TESTBED_CATALOG },
      { key: 'dSuccess', header: 'Δ pp', kind: 'difference', digits: 1, publishedFor: TESTBED_CATALOG },
      { key: 'p50', header: 'P50 s', kind: 'projected', digits: 2 },
      { key: 'pubP50', header: 'published', kind: 'published', digits: 2, publishedFor: TESTBED_CATALOG },
      { key: 'dP50', header: 'Δ s', kind: 'difference', digits: 2, publishedFor: TESTBED_CATALOG },
      { key: 'p95', header: 'P95 s', kind: 'projected', digits: 2 },
      { key: 'pubP95', header: 'published', kind: 'published', digits: 2, publishedFor: TESTBED_CATALOG },
      { key: 'dP95', header: 'Δ s', kind: 'difference', digits: 2, publishedFor: TESTBED_CATALOG },
      { key: 'cost', header: '$/task', kind: 'projected', digits: 4 },
      { key: 'costCi', header: '95% CI', kind: 'projected' },
      { key: 'pubCost', header: 'published', kind: 'published', digits: 3, publishedFor: TESTBED_CATALOG },
      { key: 'dCostPct', header: 'Δ %', kind: 'difference', digits: 0, publishedFor: TESTBED_CATALOG },
      { key: 'cacheHit', header: 'cache hit %', kind: 'projected', digits: 0 },
      { key: 'pubCacheHit', header: 'published', kind: 'published', digits: 0, publishedFor: TESTBED_CATALOG },
      { key: 'costOpenAI', header: '$/task, OpenAI bill', kind: 'projected', digits: 4 },
    ],
    rows: methods.map(({ id, label, result: r, summary, openai }) => {
      const pub = ownValue(PUBLISHED_MAIN, id);
      const success = 100 * r.successRate.mean;
      return {
        pipeline: id,
        method: label,
        retriever: retrieverOf(summary),
        toolTokens: summary?.toolTokens.mean,
        success,
        successCi: ci(r.successRate, 100, 1),
        pubSuccess: pub?.success,
        dSuccess: pub ? success - pub.success : undefined,
        p50: r.p50,
        pubP50: pub?.p50,
        dP50: pub ? r.p50 - pub.p50 : undefined,
        p95: r.p95,
        pubP95: pub?.p95,
        dP95: pub ? r.p95 - pub.p95 : undefined,
        cost: r.costPerTask.mean,
        costCi: ci(r.costPerTask, 1, 4),
        pubCost: pub?.costPerTask,
        dCostPct: pub ? (100 * (r.costPerTask.mean - pub.costPerTask)) / pub.costPerTask : undefined,
        cacheHit: 100 * r.cacheHitShare,
        pubCacheHit: ownValue(PUBLISHED_CACHE_HIT, id),
        costOpenAI: openai?.costPerTask.mean,
      };
    }),
    notes: [
      'Projections (†) from the measured turns and the parameters in "Projection parameters"; published figures are the paper\'s own projections, printed beside ours, never used by the model.',
      SIM_NOTE,
      ...fewerSeedsNotes(methods.flatMap((m) => (m.summary ? [m.summary] : []))),
      ...fitNotes(methods.flatMap((m) => (m.summary ? [m.summary] : []))),
      "Latency: per turn, over every turn of every simulation: sum over the turn's model calls of TTFT(uncached, cached prompt tokens) + output tokens / decode rate. Model calls per turn: 1 + tool calls + discovery calls + gate rejections and precondition errors.",
      "Cost per task, billed as Anthropic bills Claude Sonnet 4.5 (docs/measurement.md, “Cost and the prompt cache”): every model call re-sends the turn's measured prompt and writes it to the prompt cache (a breakpoint on its last block); it reads the leading sections it shares with the call before (measured on the prompt text; a turn's later calls share all of it) when they reach the cache minimum and the cache was used within its 5-minute lifetime, and pays the write price for the rest; a prompt under the minimum is uncached input; no cache shared across sessions; output tokens at the output price. The same for every method.",
      `Cache hit %: mean over turns of prompt tokens read from the cache / prompt tokens sent. Published cache hit rates: paper §5.6. Published: ${PUBLISHED_SOURCE}, Table 3.`,
      `$/task, OpenAI bill: the same simulated calls billed with ${BILLING.openai.label}'s list prices and cache rules (128-token cache steps, no cache-write surcharge; docs/reference/prompt-caching-billing.md); latency and success stay Claude's.`,
    ],
  };
}

/** Table 4: judge-like reasoning quality, and at turn 30 of long tasks. */
export function projectedQualityTable(methods: readonly ProjectedMethod[]): Table {
  const t = SIMULATION.qualityTurn;
  return {
    id: 'table4-projected',
    title: `Table 4 (projected): reasoning quality (judge-like score 1–5), overall and at turn ${t} of long tasks`,
    columns: [
      { key: 'method', header: 'method', kind: 'label' },
      { key: 'mean', header: 'mean', kind: 'projected', digits: 2 },
      { key: 'meanCi', header: '95% CI', kind: 'projected' },
      { key: 'sd', header: 'SD', kind: 'projected', digits: 2 },
      { key: 'good', header: `% ≥ ${SIMULATION.goodScore}`, kind: 'projected', digits: 1 },
      { key: 'pubMean', header: 'published mean', kind: 'published', digits: 2, publishedFor: TESTBED_CATALOG },
      { key: 'pubSd', header: 'published SD', kind: 'published', digits: 2, publishedFor: TESTBED_CATALOG },
      { key: 'pubGood', header: `published % ≥ ${SIMULATION.goodScore}`, kind: 'published', digits: 1, publishedFor: TESTBED_CATALOG },
      { key: 'dMean', header: 'Δ mean', kind: 'difference', digits: 2, publishedFor: TESTBED_CATALOG },
      { key: 'atTurn', header: `mean at T${t}`, kind: 'projected', digits: 2 },
      { key: 'atTurnN', header: `tasks ≥ ${t} turns`, kind: 'measured' },
      { key: 'pubAtTurn', header: `published T${t}`, kind: 'published', digits: 2, publishedFor: TESTBED_CATALOG },
      { key: 'dAtTurn', header: `Δ T${t}`, kind: 'difference', digits: 2, publishedFor: TESTBED_CATALOG },
      { key: 'reasoning', header: 'mean reasoning factor', kind: 'projected', digits: 3 },
    ],
    rows: methods.map(({ id, label, result: r }) => {
      const pub = ownValue(PUBLISHED_QUALITY, id);
      const pubT = ownValue(PUBLISHED_QUALITY_T30, id);
      const atTurn = r.qualityAtTurn.n ? r.qualityAtTurn.mean.mean : undefined;
      return {
        method: label,
        mean: r.quality.mean.mean,
        meanCi: ci(r.quality.mean, 1, 2),
        sd: r.quality.sd,
        good: 100 * r.quality.atLeast4,
        pubMean: pub?.mean,
        pubSd: pub?.sd,
        pubGood: pub?.atLeast4,
        dMean: pub ? r.quality.mean.mean - pub.mean : undefined,
        atTurn,
        atTurnN: r.qualityAtTurn.n,
        pubAtTurn: pubT,
        dAtTurn: pubT !== undefined && atTurn !== undefined ? atTurn - pubT : undefined,
        reasoning: r.meanReasoning,
      };
    }),
    notes: [
      "Score = round(5 − degradationDrop × (1 − reasoning factor) − failureDrop × [task failed] + judge noise), clamped to 1–5; reasoning factor averaged over the task's turns (at T30: that turn's factor, failure = failed by T30).",
      SIM_NOTE,
      ...fewerSeedsNotes(methods.flatMap((m) => (m.summary ? [m.summary] : []))),
      'No LLM judged anything: this is a projection of what a judge would score under the stated degradation model. Published: paper Table 4 and §7.2.',
      ...fitNotes(methods.flatMap((m) => (m.summary ? [m.summary] : []))),
    ],
  };
}

/** Which columns of the projection tables are measured and which are projected, and from what. */
export function measuredVsProjectedTable(): Table {
  const rows: { column: string; status: string; from: string; params: string }[] = [
    {
      column: 'tool tokens/turn',
      status: 'measured',
      from: 'tokenizer count of the tool sections of the exact prompt (TurnRecord.toolTokens)',
      params: '—',
    },
    { column: 'rho at T30', status: 'measured', from: 'history, user, tool and system tokens of turn 30 (table3-measured)', params: '—' },
    {
      column: 'recall / missing schemas / names listed',
      status: 'measured',
      from: "schemas and names in the prompt versus the turn's ground-truth tools",
      params: '—',
    },
    {
      column: 'shared prefix, discovery calls',
      status: 'measured',
      from: "TurnRecord.sharedPrefixTokens (leading sections identical to the task's previous prompt), discoveryCalls",
      params: '—',
    },
    {
      column: "B4's --help choices (its tokens, recall)",
      status: 'measured on a drawn policy',
      from: 'the help texts the seeded discovery policy chose to run, counted like every other section',
      params: 'selection.*, discovery.* (drawn once in the pipeline; not re-drawn by the sensitivity runs)',
    },
    {
      column: 'precondition violations offered',
      status: 'measured',
      from: 'offered schemas versus catalog preconditions and the task state',
      params: '—',
    },
    {
      column: 'success % †, failure causes †',
      status: 'projected',
      from: 'per-turn reasoning factor (rho, prompt tokens), missing/unlisted needed tools, tools shown by form (selection model), violations, ambiguity flag, gate setting',
      params: 'reasoning.*, failure.*, selection.*, context.windowTokens',
    },
    {
      column: 'P50 / P95 s †',
      status: 'projected',
      from: 'prompt tokens, cached prefix, calls per turn (tool and discovery calls, simulated retries)',
      params: 'latency.*, output.*, cache.*, session.turnGapS',
    },
    {
      column: '$/task †, cache hit % †',
      status: 'projected',
      from: 'prompt tokens, the prefix shared with the call before, calls per turn, output tokens',
      params: 'price.*, output.*, cache.*, session.turnGapS',
    },
    {
      column: 'quality mean / SD / % ≥ 4 †, T30 †',
      status: 'projected',
      from: 'reasoning factor per turn, simulated task failure, judge noise',
      params: 'reasoning.*, quality.*',
    },
    {
      column: 'sensitivity ranks †',
      status: 'projected',
      from: 'the projection re-run with one parameter ×0.5 or ×1.5',
      params: 'the keys listed in the table',
    },
    {
      column: 'published columns',
      status: 'published',
      from: "the paper's own figures (mostly its projections), printed beside ours",
      params: 'never inputs',
    },
  ];
  return {
    id: 'projection-measured-vs-projected',
    title: 'Which figures are measured and which are projected',
    columns: [
      { key: 'column', header: 'column', kind: 'label' },
      { key: 'status', header: 'measured / projected', kind: 'label' },
      { key: 'from', header: 'computed from', kind: 'label' },
      { key: 'params', header: 'projection parameters used', kind: 'label' },
    ],
    rows,
    notes: [
      'Measured = computed from the exact prompt text with the tokenizer; projected (†) = a model of what an LLM would do, stated in "Projection parameters". The paper also projects everything but the first two Table 3 columns (§6.1).',
    ],
  };
}

/** How the order of the methods moves when each key parameter moves ±50%. */
/** `codes`: each pipeline's short code from the registry (`B1`, `TA`). */
export function sensitivityTable(rows: readonly SensitivityRow[], codes: ReadonlyMap<string, string>): Table {
  const short = (id: string) => codes.get(id) ?? id;
  const order = (ids: readonly string[]) => ids.map(short).join(' > ');
  return {
    id: 'projection-sensitivity',
    title: 'Sensitivity: ranking of the methods when one parameter moves ±50% (best first)',
    columns: [
      { key: 'param', header: 'parameter', kind: 'label' },
      { key: 'change', header: 'change', kind: 'label' },
      { key: 'value', header: 'value', kind: 'parameter' },
      ...RANK_METRICS.map((m) => ({ key: m.key, header: m.label, kind: 'projected' as const })),
      { key: 'changed', header: 'order changed', kind: 'projected' as const },
      { key: 'tauSuccess', header: 'τ success', kind: 'projected' as const, digits: 2 },
    ],
    rows: rows.map((r) => ({
      param: r.key ?? 'baseline',
      change: r.key === null ? '—' : `×${r.factor}`,
      value: r.value === null ? '—' : String(round(r.value)),
      success: order(r.orders.success),
      p50: order(r.orders.p50),
      cost: order(r.orders.cost),
      quality: order(r.orders.quality),
      changed: r.key === null ? '—' : r.changed.length ? r.changed.join(', ') : 'none',
      tauSuccess: r.tau.success,
    })),
    notes: [
      'Each row re-runs the whole projection (same seeds, same measured turns) with one parameter scaled; probabilities are capped at 1. "order changed" lists the metrics whose order differs from the baseline row; τ = Kendall\'s tau of the success order against the baseline.',
      'Orders compare means; two methods whose intervals overlap in Table 3 may swap on small moves.',
    ],
  };
}

/** Failed tasks of each method sorted into the causes the simulation drew. */
export function failureTable(methods: readonly ProjectedMethod[]): Table {
  const causeKey = (c: string) => `c_${c.replace(/\W+/g, '_')}`;
  return {
    id: 'projection-failures',
    title: 'Failure analysis (projected): failed tasks per run of the task set, by cause',
    columns: [
      { key: 'method', header: 'method', kind: 'label' },
      { key: 'tasks', header: 'tasks/run', kind: 'measured' },
      { key: 'failed', header: 'failed/run', kind: 'projected', digits: 1 },
      { key: 'failedPct', header: 'failed %', kind: 'projected', digits: 1 },
      ...FAILURE_CAUSES.map((c) => ({ key: causeKey(c), header: c, kind: 'projected' as const, digits: 1 })),
      { key: 'single', header: 'success % single', kind: 'projected', digits: 1 },
      { key: 'multi', header: 'multi', kind: 'projected', digits: 1 },
      { key: 'long', header: 'long', kind: 'projected', digits: 1 },
      { key: 'extraCalls', header: 'extra calls/task', kind: 'projected', digits: 2 },
    ],
    rows: methods.map(({ label, result: r }) => {
      const runs = r.failures.runs || 1;
      const row: Record<string, string | number | undefined> = {
        method: label,
        tasks: r.failures.tasksPerRun,
        failed: r.failures.failed / runs,
        failedPct: r.failures.tasksPerRun ? (100 * r.failures.failed) / (runs * r.failures.tasksPerRun) : undefined,
        ...Object.fromEntries(FAILURE_CAUSES.map((c) => [causeKey(c), r.failures.byCause[c] / runs])),
      };
      for (const kind of ['single', 'multi', 'long'] as const) {
        const v = r.successByKind[kind];
        row[kind] = v === undefined ? undefined : 100 * v;
      }
      row.extraCalls = r.extraCallsPerTask;
      return row;
    }),
    notes: [
      "A run = one simulation seed over one bench seed's task set; figures are means over runs. A task's cause is the first failure drawn, checked per turn in this order: context overflow, ambiguous query, missing tool / unrecovered hallucination (needed schema absent) / wrong tool selected (needed schema present, another picked: projection-selection-model), precondition violation, context degradation, base model error.",
      'Success by task kind: single-step, multi-step (2–6 turns), long-horizon (15–40 turns). Extra calls: gate rejections, wrong picks and precondition errors (simulated), per task.',
      '"missing tool": the needed tool was not visible at all, or visible by name only and the model gave up; "unrecovered hallucination": it called the tool without its schema and got it wrong (no gate), or the gate rejected the call and the model did not recover.',
      `Published (Tool Attention, §7.5): ${PUBLISHED_TA_FAILURES.failed}/${PUBLISHED_TA_FAILURES.tasks} failed — ${Object.entries(
        PUBLISHED_TA_FAILURES.byCause,
      )
        .map(([k, v]) => `${v} ${k}`)
        .join(', ')}. "Poor descriptions" and "multi-hop" have no separate cause here: their effect shows up as measured missing schemas.`,
    ],
  };
}

/** A Table 5-style success column for ablation variants (Table 5 itself is assembled elsewhere). */
export function ablationSuccessTable(methods: readonly ProjectedMethod[], reference?: ProjectedMethod): Table {
  const all = reference ? [reference, ...methods] : [...methods];
  const ref = reference ? 100 * reference.result.successRate.mean : undefined;
  return {
    id: 'projection-ablation-success',
    title: 'Table 5 (ablation): Tool Attention variants, measured tool tokens and projected success',
    columns: [
      { key: 'variant', header: 'variant', kind: 'label' },
      { key: 'retriever', header: 'retriever', kind: 'label' },
      { key: 'toolTokens', header: 'tool tokens/turn', kind: 'measured' },
      { key: 'gate', header: 'hallucination gate', kind: 'label' },
      { key: 'success', header: 'success %', kind: 'projected', digits: 1 },
      { key: 'successCi', header: '95% CI', kind: 'projected' },
      { key: 'delta', header: `Δ pp vs ${reference?.label ?? 'reference'}`, kind: 'projected', digits: 1 },
      { key: 'missing', header: 'missing-tool + hallucination failures/run', kind: 'projected', digits: 1 },
      { key: 'pubVariant', header: 'published variant', kind: 'published', publishedFor: TESTBED_CATALOG },
      { key: 'pubTokens', header: 'tool tokens (published)', kind: 'published', publishedFor: TESTBED_CATALOG },
      { key: 'pubSuccess', header: 'success % (published)', kind: 'published', digits: 1, publishedFor: TESTBED_CATALOG },
      { key: 'pubDelta', header: 'Δ pp (published)', kind: 'published', digits: 1, publishedFor: TESTBED_CATALOG },
    ],
    rows: all.map(({ id, label, result: r, summary }) => {
      const pub = ownValue(PUBLISHED_ABLATION, id);
      const success = 100 * r.successRate.mean;
      const runs = r.failures.runs || 1;
      return {
        variant: label,
        retriever: retrieverOf(summary),
        toolTokens: summary?.toolTokens.mean,
        gate: r.hallucinationGate ? 'yes' : 'no',
        success,
        successCi: ci(r.successRate, 100, 1),
        delta: ref !== undefined ? success - ref : undefined,
        missing: (r.failures.byCause['missing tool'] + r.failures.byCause['unrecovered hallucination']) / runs,
        pubVariant: pub?.variant,
        pubTokens: pub?.toolTokens,
        pubSuccess: pub?.success,
        pubDelta: pub?.delta,
      };
    }),
    notes: [
      SIM_NOTE,
      'Same parameters as Table 3 (projected); variants and the reference run on the same seed and differ only in their measured turns and their recorded hallucination-gate setting. Published: Table 5 of the paper (its encoder rows swap MiniLM; ours swap use-lite).',
      ...fitNotes([...methods, ...(reference ? [reference] : [])].flatMap((m) => (m.summary ? [m.summary] : []))),
    ],
  };
}

/** What ranked a method's tools (typed settings), or — for a method that does not retrieve. */
function retrieverOf(summary: ProjectedMethod['summary']): string {
  const r = summary?.settings.retrieval;
  return r ? (r.retriever ?? r.encoder) : '—';
}

function ci(e: Estimate, scale: number, digits: number): string {
  if (!Number.isFinite(e.low) || !Number.isFinite(e.high)) return '—';
  const f = (x: number) => (x * scale).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return `${f(e.low)}–${f(e.high)}`;
}

function round(x: number): number {
  return Number(x.toPrecision(4));
}
