import { performance } from 'node:perf_hooks';
import { MEASUREMENT_PARAMS } from '../../measure/params.ts';
import { runPipeline, type TurnRecord } from '../../measure/run-pipeline.ts';
import { defineStudy, type EmbeddingContext, type Study, type StudyContext, type StudyEmbeddings } from '../types.ts';
import { SERVER_SPECS } from '../../catalog/servers/index.ts';
import type { ServerSpec } from '../../catalog/spec.ts';
import { serializeToolDefinition } from '../../catalog/types.ts';
import type { PipelineEntry } from '../../pipelines/registry.ts';
import { isHostSearch } from '../../pipelines/host-search/entries.ts';
import { PUBLISHED_SOURCE } from '../../reference/published.ts';
import { prewarmEmbeddings } from '../../retrieval/prewarm.ts';
import { tfidfCorpus } from '../../retrieval/encoder.ts';
import { createTfidfEncoder } from '../../embed/tfidf.ts';
import type { Encoder } from '../../embed/types.ts';
import type { Catalog } from '../../catalog/types.ts';
import type { Cell, Table } from '../../table/table.ts';
import type { Task } from '../../tasks/types.ts';
import { isMainMethod, mainPipelines, mean, pipelineContext, since, studyWorkDir, tasksFit, truncateTask } from '../common.ts';
import { isTestbedOf, scaledCatalog, type InstanceCache } from './scaled-catalog.ts';
import { DEFAULT_SCALING_SIZES, QUICK_SCALING_SIZES } from './sizes.ts';

/**
 * Scaling study (paper §3.3, §7.4): tool tokens per turn and rho versus catalog size N, for
 * every 'main' pipeline, on catalogs from the same calibrated generator (./scaled-catalog.ts).
 *
 * Conversations: a fixed set of long-horizon tasks of the evaluated set, the same at every N
 * (tool ids are those of the first instance of each server, which every catalog contains):
 * the long tasks with at least `rhoTurn` turns, in task order, kept while the union of the
 * tools their first `rhoTurn` turns need still fits in the smallest N (at most `maxTasks`),
 * each cut to its first `rhoTurn` turns.
 *
 * rho (paper eq. 3, as in the main table) = C_task / (C_task + tool tokens + C_sys) at turn
 * `rhoTurn`, C_task = history + user-message tokens; mean over the tasks. Tool tokens per
 * turn: mean over every turn 1..rhoTurn of those tasks (tool-role sections, discovery output
 * included). The fracture line is rho = 0.3; where a method crosses it is interpolated
 * linearly in log N between the two bracketing sizes.
 */

const SCALING_PARAMS = {
  /**
   * Largest N whose retrieval pipelines route with the run's dense encoder (use-lite). Above it
   * they route with `lexicalRetriever`, which needs no model: embedding 10,000 tool definitions
   * with use-lite would take minutes on two cores, TF-IDF fits them in seconds. In --quick (CI,
   * usually a cold cache) only the bench catalog's own sizes are dense.
   */
  denseUpTo: 1000,
  quickDenseUpTo: 120,
  /** TF-IDF capped to its 512 most frequent terms: the same vector size as use-lite, so memory stays flat at N = 10,000. */
  lexicalFeatures: 512,
  /** Retriever of the retriever-form rows above the dense limit: BM25 needs no encoder (the default `learned` reranks with dense cosine). */
  lexicalRetrieverName: 'bm25',
  maxTasks: 4,
  fracture: 0.3,
} as const;

export interface ScalingOptions {
  sizes?: number[];
  pipelines?: PipelineEntry[];
  maxTasks?: number;
  specs?: readonly ServerSpec[];
}

export interface ScalingRow {
  pipeline: string;
  label: string;
  n: number;
  toolTokens: number;
  toolTokensAtTurn: number;
  rho: number;
  catalogTokens: number;
  meanTokensPerTool: number;
  prepareSeconds: number;
  /** What the retrieval pipelines routed with at this N (encoder name; `tfidf-512` above the dense limit). */
  retriever: string;
  /** Wall milliseconds per turn to build the prompt (routing included), on this machine. */
  msPerTurn: number;
}

/** Choose the fixed conversations: see the module comment. */
export function scalingTasks(tasks: readonly Task[], budget: number, rhoTurn: number, maxTasks: number): Task[] {
  const chosen: Task[] = [];
  const union = new Set<string>();
  for (const task of tasks) {
    if (task.kind !== 'long' || task.turns.length < rhoTurn || chosen.length >= maxTasks) continue;
    const cut = truncateTask(task, rhoTurn);
    const next = new Set([...union, ...cut.groundTruthTools]);
    if (next.size > budget) continue;
    chosen.push(cut);
    for (const id of cut.groundTruthTools) union.add(id);
  }
  return chosen;
}

/** N where rho first drops below `line`, interpolated in log N; undefined if it never does. */
export function crossing(
  points: readonly { n: number; rho: number }[],
  line: number,
): { n: number; between: [number, number] } | 'below-at-start' | undefined {
  const sorted = [...points].sort((a, b) => a.n - b.n);
  if (sorted.length && sorted[0]!.rho < line) return 'below-at-start';
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1]!;
    const b = sorted[i]!;
    if (a.rho >= line && b.rho < line) {
      const t = (a.rho - line) / (a.rho - b.rho);
      return { n: Math.exp(Math.log(a.n) + t * (Math.log(b.n) - Math.log(a.n))), between: [a.n, b.n] };
    }
  }
  return undefined;
}

/** `--scaling-sizes`, else the default sweep (./sizes.ts). */
function sizesFor(ctx: Pick<StudyContext, 'quick' | 'scalingSizes'>): number[] {
  return [...(ctx.scalingSizes ?? (ctx.quick ? QUICK_SCALING_SIZES : DEFAULT_SCALING_SIZES))];
}

/** The largest N routed with the run's dense encoder. */
function denseLimit(ctx: Pick<StudyContext, 'quick'>): number {
  return ctx.quick ? SCALING_PARAMS.quickDenseUpTo : SCALING_PARAMS.denseUpTo;
}

/** The encoder-free retriever of the large-N points: TF-IDF fitted on that catalog's tool texts, capped to lexicalFeatures terms. */
function lexicalRetriever(catalog: Catalog): Encoder {
  const tfidf = createTfidfEncoder({ corpus: tfidfCorpus(catalog), maxFeatures: SCALING_PARAMS.lexicalFeatures });
  return { ...tfidf, name: `tfidf-${SCALING_PARAMS.lexicalFeatures}`, embed: (texts) => tfidf.embed(texts) };
}

type SweepContext = Pick<StudyContext, 'catalog' | 'tasks' | 'seed' | 'quick' | 'scalingSizes' | 'pipelines'>;

/** What the sweep runs: its sizes, its conversations, the tools they need, and the catalog at each size (which keeps those tools). */
interface SweepPlan {
  sizes: number[];
  tasks: Task[];
  required: string[];
  catalogAt(n: number): Catalog;
}

/** The main pipelines the sweep runs: the papers' methods (the host searches' table is per suite, not per catalog size). */
function scaledPipelines(ctx: Pick<StudyContext, 'pipelines'>, opts: ScalingOptions): PipelineEntry[] {
  return mainPipelines(ctx, opts.pipelines).filter((e) => !isHostSearch(e.id));
}

/** The sweep of this run, or why it does not run here (a log line). The bench's up-front embedding (toEmbed) and the run read the same plan. */
function planSweep(ctx: SweepContext, opts: ScalingOptions): SweepPlan | { skipped: string } {
  const specs = opts.specs ?? SERVER_SPECS;
  if (scaledPipelines(ctx, opts).length === 0) return { skipped: 'no main pipeline in this run' };
  if (ctx.tasks.length === 0 || !isTestbedOf(ctx.catalog, specs) || !tasksFit(ctx.tasks, ctx.catalog))
    return { skipped: 'needs the synthetic catalog and its tasks' };
  const sizes = [...(opts.sizes ?? sizesFor(ctx))].sort((a, b) => a - b);
  const tasks = scalingTasks(ctx.tasks, sizes[0]!, MEASUREMENT_PARAMS.rhoTurn, opts.maxTasks ?? SCALING_PARAMS.maxTasks);
  const required = [...new Set(tasks.flatMap((t) => t.groundTruthTools))];
  // The sweep's server instances, calibrated once for all its sizes and kept only as long as the plan.
  const made: InstanceCache = new Map();
  return {
    sizes,
    tasks,
    required,
    catalogAt: (n) => scaledCatalog(specs, n, { seed: ctx.seed, required, base: ctx.catalog, made }).catalog,
  };
}

async function runScaling(ctx: StudyContext, opts: ScalingOptions, { sizes, tasks, catalogAt }: SweepPlan): Promise<ScalingRow[]> {
  const rhoTurn = MEASUREMENT_PARAMS.rhoTurn;
  const rows: ScalingRow[] = [];
  if (tasks.length === 0) return rows;
  const entries = scaledPipelines(ctx, opts);
  // Exact counts; one tool definition line is encoded once for the whole sweep.
  const measureTokens = ctx.tokens;
  for (const n of sizes) {
    const built = performance.now();
    const catalog = catalogAt(n);
    const catalogTokens = catalog.tools.reduce((s, t) => s + ctx.tokens.count(serializeToolDefinition(t.definition)), 0);
    ctx.log(
      `  scaling N=${n}: catalog built in ${since(built)} (${catalog.tools.length} tools, ${catalogTokens.toLocaleString('en-US')} definition tokens)`,
    );
    // Dense points: embed the new catalog's tool texts in large batches, as the bench does for
    // its own catalog (cold the first time, then from the disk cache). Large N: lexical.
    const dense = n <= denseLimit(ctx);
    const encoder = dense ? ctx.encoder : lexicalRetriever(catalog);
    const retriever = dense ? ctx.retriever : SCALING_PARAMS.lexicalRetrieverName;
    if (dense && ctx.encoder && entries.length)
      await prewarmEmbeddings(ctx.encoder, { catalog, taskSets: [], log: (l) => ctx.log(`  scaling N=${n}: ${l}`) });
    for (const entry of entries) {
      const pipeline = entry.create();
      const started = performance.now();
      await pipeline.prepare?.({
        ...pipelineContext({ ...ctx, encoder }, catalog, studyWorkDir(ctx, 'scaling', `n${n}-${entry.id}`)),
        retriever,
      });
      const prepareSeconds = (performance.now() - started) / 1000;
      const ran = performance.now();
      const records: TurnRecord[] = await runPipeline(pipeline, tasks, { catalog, tokens: measureTokens, seed: ctx.seed });
      const msPerTurn = (performance.now() - ran) / Math.max(1, records.length);
      const atTurn = records.filter((r) => r.turn === rhoTurn - 1);
      rows.push({
        pipeline: entry.id,
        label: pipeline.label,
        n,
        toolTokens: mean(records.map((r) => r.toolTokens)),
        toolTokensAtTurn: mean(atTurn.map((r) => r.toolTokens)),
        rho: mean(atTurn.map(rhoOf)),
        catalogTokens,
        meanTokensPerTool: catalogTokens / catalog.tools.length,
        prepareSeconds,
        // What the pipeline recorded it routed with (a retriever, or the paper form's encoder).
        retriever: pipeline.describe?.().retrieval?.encoder ?? 'none',
        msPerTurn,
      });
      ctx.log(
        `  scaling N=${n} ${pipeline.label}: prepare ${prepareSeconds.toFixed(2)} s, ${records.length} turns in ${since(ran)}, rho ${rows.at(-1)!.rho.toFixed(3)}`,
      );
    }
  }
  return rows;
}

function rhoOf(r: TurnRecord): number {
  const task = r.historyTokens + r.userTokens;
  return task / (task + r.toolTokens + r.systemTokens);
}

function scalingTable(rows: readonly ScalingRow[], tasks: readonly Task[], sizes: readonly number[], quick: boolean): Table {
  const line = SCALING_PARAMS.fracture;
  const byMethod = new Map<string, ScalingRow[]>();
  for (const r of rows) byMethod.set(r.label, [...(byMethod.get(r.label) ?? []), r]);
  const crossNotes = [...byMethod].map(([label, rs]) => {
    const c = crossing(
      rs.map((r) => ({ n: r.n, rho: r.rho })),
      line,
    );
    const min = rs.reduce((m, r) => Math.min(m, r.rho), Infinity);
    if (c === 'below-at-start') return `${label}: rho already below ${line} at N=${rs[0]!.n} (${rs[0]!.rho.toFixed(3)}).`;
    if (!c)
      return `${label}: never crosses rho = ${line} up to N=${Math.max(...rs.map((r) => r.n)).toLocaleString('en-US')} (lowest rho ${min.toFixed(3)}).`;
    return `${label}: crosses rho = ${line} between N=${c.between[0]} and N=${c.between[1]}, at N ≈ ${Math.round(c.n).toLocaleString('en-US')} (log-linear interpolation).`;
  });
  const cross = new Map(
    [...byMethod].map(([label, rs]) => [
      label,
      crossing(
        rs.map((r) => ({ n: r.n, rho: r.rho })),
        line,
      ),
    ]),
  );
  const limit = denseLimit({ quick });
  const lexical = sizes.filter((n) => n > limit);
  const dense = sizes.filter((n) => n <= limit);
  return {
    id: 'scaling',
    title: `Scaling: tool tokens per turn and rho at turn ${MEASUREMENT_PARAMS.rhoTurn} versus catalog size N`,
    columns: [
      { key: 'method', header: 'method', kind: 'label' },
      { key: 'n', header: 'N', kind: 'parameter' },
      { key: 'retriever', header: 'retriever', kind: 'parameter' },
      { key: 'meanTokensPerTool', header: 'catalog tokens/tool', kind: 'measured' },
      { key: 'toolTokens', header: 'tool tokens/turn', kind: 'measured' },
      { key: 'toolTokensAtTurn', header: `tool tokens at T${MEASUREMENT_PARAMS.rhoTurn}`, kind: 'measured' },
      { key: 'rho', header: 'rho', kind: 'measured', digits: 3 },
      { key: 'belowLine', header: `rho < ${line}`, kind: 'measured' },
      { key: 'crossing', header: `crosses ${line} at N ≈`, kind: 'measured' },
      { key: 'msPerTurn', header: 'wall ms/turn', kind: 'measured', digits: 2 },
    ],
    rows: rows.map((r): Record<string, Cell> => {
      const c = cross.get(r.label);
      return {
        method: r.label,
        n: r.n,
        retriever: r.retriever,
        meanTokensPerTool: r.meanTokensPerTool,
        toolTokens: r.toolTokens,
        toolTokensAtTurn: r.toolTokensAtTurn,
        rho: r.rho,
        belowLine: r.rho < line ? 'yes' : 'no',
        crossing: c === undefined ? 'never' : c === 'below-at-start' ? `< ${Math.min(...sizes)}` : Math.round(c.n).toLocaleString('en-US'),
        msPerTurn: r.msPerTurn,
      };
    }),
    notes: [
      `Conversations: ${tasks.map((t) => t.id).join(', ')} (long-horizon tasks of the evaluated set with ≥ ${MEASUREMENT_PARAMS.rhoTurn} turns, in order, kept while the tools their first ${MEASUREMENT_PARAMS.rhoTurn} turns need fit in the smallest N; at most ${SCALING_PARAMS.maxTasks}), cut to ${MEASUREMENT_PARAMS.rhoTurn} turns; the same conversations at every N.`,
      'Catalogs: N < 120 keeps every tool those conversations need plus a seeded sample of the 120-tool testbed (calibrated definitions unchanged); N > 120 adds instances of the six authored servers (github-2, filesystem-2, ..., jira-2, github-3, ...), same tool names and summaries, distinct server ids, each calibrated by calibrateServer to its published per-server mean with its own note stream; the last instance is a seeded partial sample. N = 120 is the bench catalog.',
      'tool tokens/turn: mean tool-role tokens per turn over turns 1–30 of those conversations. rho = C_task / (C_task + tool tokens + C_sys) at turn 30, C_task = history + user message (paper eq. 3), mean over the conversations.',
      ...crossNotes,
      `Fracture line rho = ${line} (paper §3.3). Published (paper §7.4, not ours): full-schema rho crosses 0.3 near N ≈ 50; Tool Attention holds rho ≥ 0.87 up to N = 1,000 with k = 10. ${PUBLISHED_SOURCE}.`,
      `retriever: what each retrieval row routes with, as its pipeline records it. N ∈ {${dense.join(', ')}}: the bench's retriever, and the run's encoder for the paper form${lexical.length ? `; N ∈ {${lexical.join(', ')}}: no pretrained encoder (embedding that many definitions would take minutes on two cores): ${SCALING_PARAMS.lexicalRetrieverName} for the retriever-form rows, and for the paper form tfidf-${SCALING_PARAMS.lexicalFeatures}, TF-IDF fitted on that catalog's tool texts and capped to its ${SCALING_PARAMS.lexicalFeatures} most frequent terms. Rows of different retrievers compare the token cost of the method, not the same ranking.` : '.'}`,
      'wall ms/turn (a timing column: it varies between runs and machines): wall-clock milliseconds per turn for the pipeline to route and build its prompt and for the harness to count its tokens (memoised by content), mean over the conversations.',
      `${quick ? `--quick: N ∈ {${sizes.join(', ')}}, the quick task subset` : `N ∈ {${sizes.join(', ')}}`}; other sizes (N = 10,000 and beyond): \`bench --scaling-sizes\`.`,
    ],
  };
}

/**
 * What the study embeds (the bench embeds it up front: src/bench/plan/study-hints.ts): the
 * dense points' catalogs, routed with the run's encoder.
 */
function scalingEmbeddings(ctx: EmbeddingContext, opts: ScalingOptions = {}): StudyEmbeddings {
  const plan = planSweep(ctx, opts);
  if ('skipped' in plan || plan.tasks.length === 0) return {};
  return { catalogs: plan.sizes.filter((n) => n <= denseLimit(ctx)).map(plan.catalogAt) };
}

export function createScalingStudy(opts: ScalingOptions = {}): Study {
  return {
    id: 'scaling',
    description: 'rho and tool tokens per turn as the synthetic catalog grows (to 1,000 tools by default; --scaling-sizes for more)',
    readsPipelineResults: false,
    // It runs on the synthetic testbed only, tasks or not: a task file would not bring it.
    needsTasks: false,
    async run(ctx) {
      const started = performance.now();
      const plan = planSweep(ctx, opts);
      if ('skipped' in plan) {
        ctx.log(`scaling: skipped (${plan.skipped})`);
        return [];
      }
      const rows = await runScaling(ctx, opts, plan);
      if (rows.length === 0) {
        ctx.log(`scaling: skipped (no long-horizon task with ≥ ${MEASUREMENT_PARAMS.rhoTurn} turns in the task set)`);
        return [];
      }
      ctx.log(`scaling: ${rows.length} rows in ${since(started)}`);
      return [scalingTable(rows, plan.tasks, plan.sizes, ctx.quick)];
    },
  };
}

export const scalingStudy: Study = defineStudy(import.meta.url, {
  pipelinesGiven: isMainMethod,
  ...createScalingStudy(),
  // With --scaling-sizes 10000: a large heap (catalog, BM25 and TF-IDF indexes of 10,000
  // tools), and index buffers freed only when V8 finalises them.
  scheduling: { ownThread: true, largeWorkingSet: true, toEmbed: (ctx) => scalingEmbeddings(ctx), cost: 8 },
  options: ['scalingSizes'],
});
