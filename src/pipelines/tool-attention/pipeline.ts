import { performance } from 'node:perf_hooks';
import type { CatalogTool, McpTool } from '../../catalog/types.ts';
import { CachedEncoder } from '../../embed/cache.ts';
import type { EncoderName } from '../../embed/registry.ts';
import type { Encoder } from '../../embed/types.ts';
import type { CreateVectorIndexOptions } from '../../index/registry.ts';
import { renderToolSummaries } from '../../prompt/render-tools.ts';
import { sectionTokens } from '../../prompt/section-tokens.ts';
import { section } from '../../prompt/sections.ts';
import { transcriptSection } from '../../prompt/shared-parts.ts';
import { resolveEncoder } from '../../retrieval/encoder.ts';
import { schemaSections } from '../../retrieval/schema-sections.ts';
import { OBSERVATION_CHARS, queryText, toolSummaryText } from '../../retrieval/texts.ts';
import { buildToolIndex, type ToolIndex } from '../../retrieval/tool-index.ts';
import type { Task } from '../../tasks/types.ts';
import type { TokenCounter } from '../../tokens/counter.ts';
import type { Pipeline, PipelineContext, PipelineSettings, PromptSection, TurnInput, TurnResult } from '../types.ts';
import { calibrateTheta, writeCalibration } from './calibration.ts';
import type { FittedPart, ThresholdCalibration } from '../../results/pipeline-settings.ts';
import { round4, vectorHash, type GateEvent, type RoutingEvent } from './events.ts';
import { hallucinationGate } from './hallucination-gate.ts';
import { LazySchemaLoader } from './lazy-loader.ts';
import { stateGate } from './preconditions.ts';
import { IntentRouter, routeRanking, type RouteResult } from './router.ts';
import { calibrateRetrieverTheta, COVERAGE_TARGET, SCALE_NOTES, type ThetaPolicy } from './retriever-calibration.ts';
import { DEFAULT_QUERY_MODE, describeQueryMode, type QueryMode } from '../../retrieval/query.ts';
import { DEFAULT_RETRIEVER, retrieverByName } from '../../retrieval/registry.ts';
import { retrieverFit, retrieverRecord } from '../../retrieval/recorded-settings.ts';
import { normaliseRanking, taskRankings } from '../../retrieval/task-rankings.ts';
import type { FittedRetriever, Retriever } from '../../retrieval/types.ts';
import { createHash } from 'node:crypto';

export interface ToolAttentionOptions {
  /** Pipeline id and table label (ablation variants set their own). */
  id?: string;
  label?: string;
  /** Top-k promoted per turn (paper: 10). 0 = phase 1 only. */
  k?: number;
  /** Same as k = 0: the summary pool alone, nothing is ever promoted (Table 5 "phase-1 only"). */
  phase1Only?: boolean;
  /**
   * θ: a number, `calibrated` (max F1 on ctx.calibrationTasks, the paper's rule; default of the
   * paper form) or `coverage` (highest θ keeping every needed tool on COVERAGE_TARGET of the
   * calibration turns; default on a retriever).
   */
  theta?: number | 'calibrated' | 'coverage';
  /**
   * The paper's form: ISO is the encoder's cosine between the query and the summary line,
   * searched in a vector index. Otherwise tools are ranked by a retriever. Default: the paper
   * form when `encoder` is given without `retriever`, else a retriever.
   */
  paperForm?: boolean;
  /** Retriever name (src/retrieval/registry.ts) when not the paper form; default ctx.retriever, else DEFAULT_RETRIEVER. */
  retriever?: string;
  /** Query text on a retriever (default DEFAULT_QUERY_MODE). */
  query?: QueryMode;
  /** Encoder name or instance instead of the bench's (ctx.encoder), for the paper form. */
  encoder?: EncoderName | Encoder;
  /** Vector index implementation (default auto: faiss when built, else exact). */
  index?: CreateVectorIndexOptions['prefer'];
  /** State-aware precondition gate (default on; off = "ISO only"). */
  preconditionGate?: boolean;
  /** Reject calls to tools not promoted this turn (default on). */
  hallucinationGate?: boolean;
  /** Route but never inject full schemas (Table 5 "summaries only, phase 2 skipped"). */
  skipPhase2?: boolean;
  /** Embed the query together with the last observation (the previous turn's transcript). Default off. */
  reembedWithObservation?: boolean;
  /** Characters of the observation used when re-embedding (default 1000). */
  observationChars?: number;
  /** LRU capacity of the lazy schema loader (default 256, as the reference code). */
  loaderCapacity?: number;
}

const SUMMARY_POOL_HEADING = 'Tool summaries (every tool; call a tool only when its full schema is listed for the current request):';
export const PROMOTED_SCHEMAS_HEADING = 'Full schemas of the tools available for this request (MCP tools/list entries):';

/** The options with their defaults, checked once when the pipeline is made. */
interface Settings {
  options: ToolAttentionOptions;
  k: number;
  paperForm: boolean;
  thetaOption: number | 'calibrated' | 'coverage';
  queryMode: QueryMode;
  useStateGate: boolean;
  useHallucinationGate: boolean;
  skipPhase2: boolean;
  reembed: boolean;
  observationChars: number;
  capacity: number;
}

function toolAttentionSettings(options: ToolAttentionOptions): Settings {
  const k = options.phase1Only ? 0 : (options.k ?? 10);
  if (!Number.isInteger(k) || k < 0) throw new Error(`tool-attention: k must be a non-negative integer, got ${k}`);
  // Given an encoder and no retriever, the caller asks for the paper form.
  const paperForm = options.paperForm ?? (options.encoder !== undefined && options.retriever === undefined);
  const thetaOption = options.theta ?? (paperForm ? 'calibrated' : 'coverage');
  const queryMode: QueryMode = options.query ?? DEFAULT_QUERY_MODE;
  if (thetaOption !== 'calibrated' && thetaOption !== 'coverage' && !Number.isFinite(thetaOption))
    throw new Error(`tool-attention: theta must be a number, 'calibrated' or 'coverage'`);
  if (paperForm && thetaOption === 'coverage') throw new Error(`tool-attention: the coverage θ policy needs a retriever (paperForm off)`);
  return {
    options,
    k,
    paperForm,
    thetaOption,
    queryMode,
    useStateGate: options.preconditionGate ?? true,
    useHallucinationGate: options.hallucinationGate ?? true,
    skipPhase2: options.skipPhase2 ?? false,
    reembed: options.reembedWithObservation ?? false,
    observationChars: options.observationChars ?? OBSERVATION_CHARS,
    capacity: options.loaderCapacity ?? 256,
  };
}

/** What prepare() fits on a catalog, and what turn() and describe() read (stats: the counters of describe()). */
interface State {
  encoder?: Encoder;
  tokens?: TokenCounter;
  // The index, not its vectors: those serve calibration in prepare only, and are large in the
  // scaling study's largest catalogs.
  toolIndex?: Omit<ToolIndex, 'vectors'>;
  router?: IntentRouter;
  loader?: LazySchemaLoader<McpTool>;
  byId: Map<string, CatalogTool>;
  allIds: string[];
  pool?: PromptSection;
  phase1Tokens: number;
  theta: number;
  thetaSource: string;
  calibration?: ThresholdCalibration;
  thetaFit?: FittedPart;
  catalogOf?: PipelineContext['catalog'];
  retriever?: Retriever;
  fitted?: FittedRetriever;
  stats: ReturnType<typeof emptyStats>;
}

const emptyStats = () => ({ turns: 0, gatedOutByState: 0, promoted: 0, gateRejections: 0, turnsWithRejection: 0, unpromotedCalls: 0 });

function emptyState(): State {
  return { byId: new Map(), allIds: [], phase1Tokens: 0, theta: 0, thetaSource: '', stats: emptyStats() };
}

const queryFor = (settings: Settings, user: string, observation: string | undefined) =>
  queryText(user, settings.reembed ? observation : undefined, settings.observationChars);

/** One batched embed for a task's queries (a no-op for the prewarmed default; saves per-turn calls for other encoders). */
async function prefetch(settings: Settings, state: State, task: Task): Promise<void> {
  const { encoder } = state;
  if (!(encoder instanceof CachedEncoder)) return;
  const texts = task.turns.map((turn, i) =>
    queryFor(
      settings,
      turn.user,
      i > 0 && settings.reembed ? transcriptSection(state.catalogOf!, i - 1, task.turns[i - 1]!).text : undefined,
    ),
  );
  await encoder.embed(texts);
}

/** The ranker (the paper form's index, or a retriever), the lazy loader, the phase-1 pool and θ. */
async function prepareToolAttention(settings: Settings, state: State, ctx: PipelineContext): Promise<void> {
  const { options } = settings;
  state.tokens = ctx.tokens;
  state.stats = emptyStats();
  state.catalogOf = ctx.catalog;
  const tools = ctx.catalog.tools;
  const byId = new Map(tools.map((t) => [t.id, t]));
  state.byId = byId;
  state.allIds = tools.map((t) => t.id);
  let toolVectors: ToolIndex['vectors'] | undefined;
  if (settings.paperForm) {
    state.encoder = await resolveEncoder(ctx, options.encoder);
    const built = await buildToolIndex(state.encoder, tools, toolSummaryText, options.index);
    toolVectors = built.vectors;
    state.toolIndex = { index: built.index, note: built.note };
    state.router = new IntentRouter(state.toolIndex.index);
  } else {
    state.retriever = retrieverByName(options.retriever ?? ctx.retriever ?? DEFAULT_RETRIEVER);
    state.fitted = await state.retriever.fit(tools);
  }
  // The out-of-context registry: full definitions fetched by id.
  state.loader = new LazySchemaLoader(settings.capacity, (id) => {
    const tool = byId.get(id);
    if (!tool) throw new Error(`lazy loader: no schema for ${id}`);
    return tool.definition;
  });
  state.pool = section('tools', 'summary-pool', renderToolSummaries(tools, SUMMARY_POOL_HEADING), true);
  state.phase1Tokens = ctx.tokens.count(state.pool.text);
  await chooseTheta(settings, state, ctx, toolVectors);
}

/**
 * θ: fixed, calibrated on the held-out tasks (by the retriever's policy, or max F1 of the
 * paper form's cosine), else 0 when there is nothing to calibrate on.
 */
async function chooseTheta(settings: Settings, state: State, ctx: PipelineContext, toolVectors: ToolIndex['vectors'] | undefined) {
  const { thetaOption, options } = settings;
  const { retriever, fitted, encoder } = state;
  const canCalibrate = ctx.calibrationTasks.some((t) => t.turns.some((turn) => turn.tools.length > 0));
  // Calibration tasks over another catalog: θ is calibrated on that catalog's tools and carried over.
  const calCatalog = ctx.calibrationCatalog ?? ctx.catalog;
  const carried = calCatalog !== ctx.catalog;
  state.thetaFit = undefined;
  state.calibration = undefined;
  if (typeof thetaOption === 'number') {
    state.theta = thetaOption;
    state.thetaSource = 'fixed';
  } else if (canCalibrate && retriever && fitted) {
    const policy: ThetaPolicy = thetaOption === 'coverage' ? { kind: 'coverage', target: COVERAGE_TARGET } : { kind: 'f1' };
    const calFitted = carried ? await retriever.fit(calCatalog.tools) : fitted;
    const cal = await calibrateRetrieverTheta(retriever, calFitted, ctx.calibrationTasks, settings.queryMode, policy);
    writeCalibration(ctx.workDir, cal);
    state.theta = cal.chosen.theta;
    state.thetaSource =
      policy.kind === 'f1'
        ? `calibrated: max F1 over ${cal.pairs.toLocaleString('en-US')} held-out (query, tool) pairs, step ${cal.step}`
        : `calibrated (coverage): highest θ keeping every needed tool on ≥ ${policy.target * 100}% of ${cal.queries} held-out turns, step ${cal.step}`;
    state.calibration = cal;
  } else if (canCalibrate && encoder && toolVectors) {
    const calVectors = carried ? (await buildToolIndex(encoder, calCatalog.tools, toolSummaryText, options.index)).vectors : toolVectors;
    const cal = await calibrateTheta(
      encoder,
      calCatalog.tools,
      calVectors,
      ctx.calibrationTasks,
      'server/name: summary (the phase-1 line)',
    );
    // Every point of the sweep, for the record; the threshold study reads `calibration` from describe().
    writeCalibration(ctx.workDir, cal);
    state.theta = cal.chosen.theta;
    state.thetaSource = `calibrated: max F1 over ${cal.pairs.toLocaleString('en-US')} held-out (query, tool) pairs, step ${cal.step}`;
    state.calibration = cal;
  } else {
    state.theta = 0;
    state.thetaSource = 'uncalibrated: no held-out calibration tasks, θ = 0 (top-k only)';
  }
  if (state.calibration) {
    const turns = state.calibration.queries.toLocaleString('en-US');
    state.thetaFit = {
      part: 'θ',
      on: `${turns} held-out calibration turns over ${calCatalog.name}${carried ? ` (θ = ${state.theta.toFixed(2)} carried over to ${ctx.catalog.name}, which has no held-out tasks)` : ''}, never the evaluated tasks`,
    };
  }
}

/** A turn: route, promote the active tools' full schemas before the user's message, gate the turn's calls. */
async function toolAttentionTurn(
  settings: Settings,
  state: State,
  { task, turnIndex, turn, state: agent, shared }: TurnInput,
): Promise<TurnResult> {
  const { loader, pool, tokens, stats, theta } = state;
  const { k, skipPhase2 } = settings;
  if (!loader || !pool || !tokens) throw new Error('tool-attention: prepare() was not called');
  const started = performance.now();
  const { route, queryHash, observation } = await routeTurn(settings, state, task, turnIndex, turn.user, agent, shared.history);
  const latencyMs = performance.now() - started;
  const active = route.active.map((h) => h.id);

  const sections: PromptSection[] = [shared.system, pool, ...shared.history];
  let phase2Tokens = 0;
  if (!skipPhase2 && active.length > 0) {
    const promoted = schemaSections(
      'promoted-schemas',
      PROMOTED_SCHEMAS_HEADING,
      active.map((id) => loader.get(id)),
    );
    for (const s of promoted) phase2Tokens += sectionTokens(s, tokens);
    sections.push(...promoted);
  }
  sections.push(shared.user);

  const routing: RoutingEvent = {
    type: 'routing',
    turn: turnIndex,
    query_embedding_hash: queryHash,
    candidates: route.candidates.map((h) => h.id),
    scores: route.candidates.map((h) => round4(h.score)),
    gated_out_by_state: route.gatedOut,
    active_set: active,
    phase1_tokens: state.phase1Tokens,
    phase2_tokens: phase2Tokens,
    latency_ms: round4(latencyMs),
    theta,
    k,
    reembedded_with_observation: observation !== undefined,
  };
  const events: (RoutingEvent | GateEvent)[] = [routing, ...gateEvents(settings, state, active, turn.tools, turnIndex)];
  stats.turns++;
  stats.promoted += active.length;
  stats.gatedOutByState += route.gatedOut.length;

  return {
    prompt: { sections },
    exposure: { listedTools: state.allIds, fullSchemaTools: skipPhase2 ? [] : active, discoveryCalls: [] },
    events: events as unknown as Record<string, unknown>[],
  };
}

/** The turn's ranking thresholded and cut to top-k: by the retriever, or by the query's embedding (paper form). */
async function routeTurn(
  settings: Settings,
  state: State,
  task: Task,
  turnIndex: number,
  user: string,
  agent: TurnInput['state'],
  history: readonly PromptSection[],
): Promise<{ route: RouteResult; queryHash: string; observation: string | undefined }> {
  const { k, reembed } = settings;
  const { retriever, fitted, encoder, router, theta } = state;
  const gate = settings.useStateGate ? stateGate(state.byId, agent) : undefined;
  if (retriever && fitted) {
    const ranking = (await taskRankings(fitted, task, settings.queryMode))[turnIndex]!;
    const route = routeRanking(normaliseRanking(ranking, retriever.scale), { k, theta, gate });
    return { route, queryHash: createHash('sha256').update(user).digest('hex').slice(0, 16), observation: undefined };
  }
  if (!encoder || !router) throw new Error('tool-attention: prepare() was not called');
  if (turnIndex === 0) await prefetch(settings, state, task);
  const observation = reembed ? history.at(-1)?.text : undefined;
  const [query] = await encoder.embed([queryFor(settings, user, observation)]);
  return { route: router.route(query!, { k, theta, gate }), queryHash: vectorHash(query!), observation };
}

/** The hallucination gate's rejections of the turn's calls to tools outside the active set (or, gate off, the calls it would reject). */
function gateEvents(settings: Settings, { stats }: State, active: string[], called: string[], turnIndex: number): GateEvent[] {
  const events: GateEvent[] = [];
  const rejected = hallucinationGate(active, called);
  if (settings.useHallucinationGate) {
    for (const error of rejected) events.push({ type: 'hallucination_gate', turn: turnIndex, tool: error.tool, error });
    stats.gateRejections += rejected.length;
    if (rejected.length) stats.turnsWithRejection++;
  } else {
    for (const { tool } of rejected) events.push({ type: 'unpromoted_call', turn: turnIndex, tool });
    stats.unpromotedCalls += rejected.length;
  }
  return events;
}

function describeToolAttention(settings: Settings, state: State): PipelineSettings {
  const { k, reembed, observationChars, skipPhase2 } = settings;
  const { retriever, fitted, thetaFit, encoder, toolIndex, theta, thetaSource, stats } = state;
  return {
    fitted: [...retrieverFit(retriever, fitted), ...(thetaFit ? [thetaFit] : [])],
    retrieval: retriever
      ? {
          ...retrieverRecord(retriever),
          k,
          theta,
          thetaSource,
          toolText: retriever.toolText,
          query: describeQueryMode(settings.queryMode),
          scoreScale: SCALE_NOTES[retriever.scale],
        }
      : {
          encoder: encoder?.name ?? '?',
          encoderDescription: encoder?.description,
          retriever: `dense:${encoder?.name ?? '?'} (paper form)`,
          index: toolIndex?.index.name,
          indexNote: toolIndex?.note,
          k,
          theta,
          thetaSource,
          toolText: 'server/name: summary (the phase-1 line)',
          query: reembed ? `user message + previous turn transcript (first ${observationChars} chars)` : 'user message',
          scoreScale: SCALE_NOTES.cosine,
        },
    gates: { hallucination: settings.useHallucinationGate, preconditions: settings.useStateGate },
    calibration: state.calibration,
    details: {
      skipPhase2,
      loaderCapacity: settings.capacity,
      phase1Tokens: state.phase1Tokens,
      stats: {
        ...stats,
        meanPromoted: stats.turns ? stats.promoted / stats.turns : 0,
        gateTurnShare: stats.turns ? stats.turnsWithRejection / stats.turns : 0,
        loader: state.loader?.stats(),
      },
    },
  };
}

/**
 * Tool Attention (paper §4): a stable phase-1 pool of every tool summary right after the
 * system text; per turn, the query is embedded, tools are scored by ISO (cosine to their
 * summary), thresholded at θ, filtered by the precondition gate and cut to top-k; the promoted
 * tools' full schemas (phase 2, from an LRU lazy loader) go right before the user's message
 * (`promoted-schemas`: a heading section plus one section per definition).
 * The hallucination gate then rejects every call the turn makes (the simulated model calls the
 * turn's ground-truth tools) to a tool outside the active set, with a structured error.
 */
export function createToolAttentionPipeline(options: ToolAttentionOptions = {}): Pipeline {
  const settings = toolAttentionSettings(options);
  const state = emptyState();
  return {
    id: options.id ?? 'tool-attention',
    label: options.label ?? 'Tool Attention',
    prepare: (ctx: PipelineContext) => prepareToolAttention(settings, state, ctx),
    turn: (input: TurnInput) => toolAttentionTurn(settings, state, input),
    describe: () => describeToolAttention(settings, state),
  };
}
