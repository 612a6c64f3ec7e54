import type { Catalog, CatalogTool, McpTool } from '../../catalog/types.ts';
import type { Encoder } from '../../embed/types.ts';
import { section, toolListSection } from '../../prompt/sections.ts';
import { directTranscript, resultLine } from '../../prompt/shared-parts.ts';
import { toolResults, type ToolResult } from '../../catalog/tool-results.ts';
import { resolveEncoder } from '../../retrieval/encoder.ts';
import { DEFAULT_QUERY_MODE, describeQueryMode } from '../../retrieval/query.ts';
import { DEFAULT_RETRIEVER, retrieverByName } from '../../retrieval/registry.ts';
import { retrieverFit, retrieverRecord } from '../../retrieval/recorded-settings.ts';
import { taskRankings } from '../../retrieval/task-rankings.ts';
import type { FittedRetriever, Retriever } from '../../retrieval/types.ts';
import { queryText } from '../../retrieval/texts.ts';
import type { Task, TaskTurn } from '../../tasks/types.ts';
import type { TokenCounter } from '../../tokens/counter.ts';
import type { Pipeline, PipelineContext, PipelineSettings, PromptSection, TurnInput, TurnResult, TurnTranscript } from '../types.ts';
import {
  B1_HEADING,
  DEFAULT_DEDUP_CONFIG,
  dedupeTools,
  renderExternalList,
  renderInternal,
  renderPlain,
  renderTemplates,
  type DedupConfig,
  type DedupResult,
  type RefVariant,
} from './dedup.ts';
import {
  DEFAULT_REQUIRE_OUTPUT,
  outputFieldPaths,
  requestedFields,
  trimResponse,
  withRequireOutput,
  type RequireOutputConfig,
} from './require-output.ts';
import { SEMANTIC_DEFAULTS, SemanticToolIndex, selectByTags, TAG_DEFAULTS, type SemanticConfig, type TagConfig } from './retrieval.ts';
import { DEFAULT_SHORT_MODE, shortDefinition, type ShortModeConfig } from './short-mode.ts';

/**
 * The ADOL pipeline: one factory, four independent switches (draft §3.1–3.4).
 *
 *   ref            false | 'internal' | 'external'   schema dedup with JSON $ref (dedup.ts)
 *   short          boolean                           short tools/list without optional content (short-mode.ts)
 *   requireOutput  boolean                           output-field selection + client-side trimming (require-output.ts)
 *   retrieval      false | 'semantic' | 'tags'       tool selection per turn (retrieval.ts)
 *
 * Per turn, in this order: select the tools (retrieval, else all), take each one's short
 * definition (short), add the `requireOutput` offer (requireOutput), then deduplicate the
 * exposed list (ref) and render it.
 *
 * - ref 'internal': the exposed list is deduplicated on its own every turn (only what pays off
 *   for THIS list is hoisted) into the `$defs` of the tools/list document in the prompt.
 * - ref 'external': templates are computed once over the whole (transformed) catalog; the
 *   host loads them into the context once per session, so they are a stable `tools` section
 *   (`adol-templates`) on the first turn of each task only, and later turns carry only the
 *   pointer-bearing list. This is the draft's "cache to avoid repeated token consumption"
 *   read optimistically (a cached prefix is not billed again); the internal variant is the
 *   per-turn cost when nothing is cached.
 * - requireOutput: besides the larger input schemas, the tool results that enter the
 *   conversation are trimmed, so the history is rebuilt from the shared transcript with the
 *   call carrying `requireOutput` and the result trimmed (identical text otherwise).
 */
export interface AdolOptions {
  ref: false | RefVariant;
  short: boolean;
  requireOutput: boolean;
  retrieval: false | 'semantic' | 'tags';
  dedup?: DedupConfig;
  shortMode?: ShortModeConfig;
  requireOutputConfig?: RequireOutputConfig;
  semantic?: SemanticConfig;
  tags?: TagConfig;
}

export const NO_MECHANISM: AdolOptions = { ref: false, short: false, requireOutput: false, retrieval: false };

/** The registered variants: each mechanism alone, and all combined. */
export const ADOL_PRESETS = {
  'adol-ref-internal': {
    label: 'ADOL $ref (internal $defs)',
    mechanism: 'A. $ref dedup, internal',
    options: { ...NO_MECHANISM, ref: 'internal' },
  },
  'adol-ref-external': {
    label: 'ADOL $ref (external templates)',
    mechanism: 'A. $ref dedup, external',
    options: { ...NO_MECHANISM, ref: 'external' },
  },
  'adol-short': { label: 'ADOL short tools/list', mechanism: 'B. optional fields omitted', options: { ...NO_MECHANISM, short: true } },
  'adol-require-output': { label: 'ADOL requireOutput', mechanism: 'C. requireOutput', options: { ...NO_MECHANISM, requireOutput: true } },
  'adol-retrieval-semantic': {
    label: 'ADOL semantic retrieval',
    mechanism: 'D. retrieval, semantic top-k',
    options: { ...NO_MECHANISM, retrieval: 'semantic' },
  },
  'adol-retrieval-tags': { label: 'ADOL tag retrieval', mechanism: 'D. retrieval, tags', options: { ...NO_MECHANISM, retrieval: 'tags' } },
  'adol-combined': {
    label: 'ADOL combined',
    mechanism: 'A+B+C+D (internal $ref, short, requireOutput, semantic top-k)',
    options: { ref: 'internal', short: true, requireOutput: true, retrieval: 'semantic' },
  },
} as const satisfies Record<string, { label: string; mechanism: string; options: AdolOptions }>;

export type AdolPresetId = keyof typeof ADOL_PRESETS;

export function createAdolPreset(id: AdolPresetId): Pipeline {
  const p = ADOL_PRESETS[id];
  return createAdolPipeline(id, p.label, p.options);
}

/** What requireOutput does for one tool: the offered paths and the rule's request. */
export interface OutputSelection {
  offered: string[];
  requested: string[];
}

export function outputSelections(catalog: Catalog, config: RequireOutputConfig = DEFAULT_REQUIRE_OUTPUT): Map<string, OutputSelection> {
  return new Map(
    catalog.tools.map((t) => {
      const offered = outputFieldPaths(t.definition.outputSchema, config.maxDepth);
      return [t.id, { offered, requested: requestedFields(offered) }];
    }),
  );
}

/** A tool's definition as this configuration exposes it (short, then the requireOutput offer). */
export function exposedDefinition(tool: CatalogTool, options: AdolOptions, selection?: OutputSelection): McpTool {
  let def = tool.definition;
  if (options.short) def = shortDefinition(def, options.shortMode ?? DEFAULT_SHORT_MODE);
  if (options.requireOutput && selection)
    def = withRequireOutput(def, selection.offered, options.requireOutputConfig ?? DEFAULT_REQUIRE_OUTPUT);
  return def;
}

/** The rendered tool list of a set of exposed definitions under the ref switch (not external). */
function renderToolList(
  defs: readonly McpTool[],
  ref: false | 'internal',
  tokens: TokenCounter,
  dedup: DedupConfig = DEFAULT_DEDUP_CONFIG,
): { text: string; dedup?: DedupResult } {
  if (!ref) return { text: renderPlain(defs, B1_HEADING) };
  const result = dedupeTools(defs, 'internal', tokens, dedup);
  return { text: renderInternal(result), dedup: result };
}

export function createAdolPipeline(id: string, label: string, options: AdolOptions): Pipeline {
  const settings: Settings = {
    options,
    dedupConfig: options.dedup ?? DEFAULT_DEDUP_CONFIG,
    roConfig: options.requireOutputConfig ?? DEFAULT_REQUIRE_OUTPUT,
    semConfig: options.semantic ?? SEMANTIC_DEFAULTS,
    tagConfig: options.tags ?? TAG_DEFAULTS,
  };
  const state = emptyState();
  return {
    id,
    label,
    prepare: (ctx: PipelineContext) => prepareAdol(settings, state, ctx),
    startTask() {
      state.queryVectors = new Map();
      state.historyMemo = [];
    },
    turn: (input: TurnInput) => adolTurn(settings, state, input),
    describe: () => describeAdol(settings, state),
  };
}

/** The switches and each mechanism's configuration, defaults filled in. */
interface Settings {
  options: AdolOptions;
  dedupConfig: DedupConfig;
  roConfig: RequireOutputConfig;
  semConfig: SemanticConfig;
  tagConfig: TagConfig;
}

/** What prepare() builds on a catalog and turn() reads; the per-task part is reset by startTask(). */
interface State {
  catalog: Catalog;
  tokens: TokenCounter;
  order: Map<string, number>;
  exposed: Map<string, McpTool>;
  selections: Map<string, OutputSelection>;
  // Every tool's result, made once per run (requireOutput trims them on every task).
  results: ReadonlyMap<string, ToolResult>;
  external?: DedupResult;
  externalById: Map<string, McpTool>;
  templatesSection?: PromptSection;
  fullSection?: PromptSection;
  semantic?: SemanticToolIndex;
  encoder?: Encoder;
  // Semantic retrieval on a retriever (default) or, with semConfig.encoder, the draft's weighted embeddings.
  retriever?: Retriever;
  fitted?: FittedRetriever;
  listMemo: Map<string, PromptSection>;
  // Per-task state.
  queryVectors: Map<string, Float32Array>;
  historyMemo: TurnTranscript[];
  // Counters for describe().
  stats: { turns: number; selectedTotal: number; tagFallbackTurns: number; listMemoSize: number };
}

function emptyState(): State {
  return {
    // Set by prepare() before any turn reads them.
    catalog: undefined as unknown as Catalog,
    tokens: undefined as unknown as TokenCounter,
    order: new Map(),
    exposed: new Map(),
    selections: new Map(),
    results: new Map(),
    externalById: new Map(),
    listMemo: new Map(),
    queryVectors: new Map(),
    historyMemo: [],
    stats: { turns: 0, selectedTotal: 0, tagFallbackTurns: 0, listMemoSize: 0 },
  };
}

/** Each tool's exposed definition, the external templates, the full list when nothing is retrieved, and the retrieval index. */
async function prepareAdol(settings: Settings, state: State, ctx: PipelineContext): Promise<void> {
  const { options, roConfig, semConfig, dedupConfig } = settings;
  const catalog = ctx.catalog;
  state.catalog = catalog;
  state.tokens = ctx.tokens;
  state.order = new Map(catalog.tools.map((t, i) => [t.id, i]));
  state.selections = options.requireOutput ? outputSelections(catalog, roConfig) : new Map();
  state.results = options.requireOutput ? toolResults(catalog) : new Map();
  state.exposed = new Map(catalog.tools.map((t) => [t.id, exposedDefinition(t, options, state.selections.get(t.id))]));
  state.listMemo.clear();
  if (options.ref === 'external') {
    const external = dedupeTools([...state.exposed.values()], 'external', state.tokens, dedupConfig);
    state.external = external;
    state.externalById = new Map(catalog.tools.map((t, i) => [t.id, external.tools[i]!]));
    const tpl = renderTemplates(external);
    // Part of the tool list as this text carries it; a host that inlines the pointers sends no templates.
    state.templatesSection = tpl ? toolListSection('adol-templates', tpl, true, []) : undefined;
  }
  if (!options.retrieval)
    state.fullSection = toolSection(
      settings,
      state,
      catalog.tools.map((t) => t.id),
      true,
    );
  if (options.retrieval === 'semantic' && semConfig.encoder) {
    state.encoder = await resolveEncoder(ctx, semConfig.encoder);
    state.semantic = await SemanticToolIndex.build(catalog.tools, state.encoder, semConfig);
  } else if (options.retrieval === 'semantic') {
    state.retriever = retrieverByName(semConfig.retriever ?? ctx.retriever ?? DEFAULT_RETRIEVER);
    state.fitted = await state.retriever.fit(catalog.tools);
  }
}

/** The tool-list section of a set of tools, rendered under the ref switch (memoised: retrieval repeats sets). */
function toolSection({ options, dedupConfig }: Settings, state: State, ids: readonly string[], stable: boolean): PromptSection {
  const { listMemo, exposed } = state;
  const key = ids.join('\n');
  const known = listMemo.get(key);
  if (known) return known;
  let text: string;
  if (options.ref === 'external') {
    text = renderExternalList({ variant: 'external', tools: ids.map((i) => state.externalById.get(i)!), defs: state.external!.defs });
  } else {
    text = renderToolList(
      ids.map((i) => exposed.get(i)!),
      options.ref,
      state.tokens,
      dedupConfig,
    ).text;
  }
  // A host's tool parameter takes one self-contained schema per tool: the exposed definitions
  // (short, requireOutput), whatever the $ref variant did to this text.
  const s = toolListSection(
    'tool-definitions',
    text,
    stable,
    ids.map((i) => exposed.get(i)!),
  );
  if (listMemo.size < 20_000) listMemo.set(key, s);
  return s;
}

/** The trimmed transcripts of the task's turns up to and including `turnIndex` (requireOutput only). */
function trimmedUpTo({ roConfig }: Settings, state: State, task: Task, turnIndex: number): TurnTranscript[] {
  const { historyMemo } = state;
  for (let j = historyMemo.length; j <= turnIndex; j++)
    historyMemo.push(trimmedTranscript(state.catalog, state.results, j, task.turns[j]!, state.selections, roConfig.propertyName));
  return historyMemo;
}

function historyFor(settings: Settings, state: State, task: Task, turnIndex: number, shared: readonly PromptSection[]): PromptSection[] {
  if (!settings.options.requireOutput) return [...shared];
  return trimmedUpTo(settings, state, task, turnIndex)
    .slice(0, turnIndex)
    .map((t) => t.section);
}

async function adolTurn(settings: Settings, state: State, { task, turnIndex, turn, shared }: TurnInput): Promise<TurnResult> {
  const { options } = settings;
  const { ids, events } = await selectTools(settings, state, task, turnIndex, turn);
  state.stats.turns++;
  state.stats.selectedTotal += ids.length;
  // A list that is the same every turn leads (cacheable prefix); a per-turn (retrieved) list
  // sits after the history, right before the user's message, as in B3.
  const sections: PromptSection[] = [shared.system];
  if (state.templatesSection && turnIndex === 0) sections.push(state.templatesSection);
  const history = historyFor(settings, state, task, turnIndex, shared.history);
  if (state.fullSection) sections.push(state.fullSection, ...history, shared.user);
  else sections.push(...history, toolSection(settings, state, ids, false), shared.user);
  return {
    prompt: { sections },
    exposure: { listedTools: ids, fullSchemaTools: ids, discoveryCalls: [] },
    events: events.length ? events : undefined,
    // With requireOutput the results the turn leaves are the trimmed ones.
    transcript: options.requireOutput ? trimmedUpTo(settings, state, task, turnIndex)[turnIndex] : undefined,
  };
}

/** The turn's tools (retrieval, else all of them), with the retrieval event. */
async function selectTools(
  { options, semConfig, tagConfig }: Settings,
  state: State,
  task: Task,
  turnIndex: number,
  turn: TaskTurn,
): Promise<{ ids: string[]; events: Record<string, unknown>[] }> {
  const { order, catalog, queryVectors } = state;
  if (options.retrieval === 'semantic' && state.fitted) {
    const ranked = (await taskRankings(state.fitted, task, DEFAULT_QUERY_MODE))[turnIndex]!.top(semConfig.k).map((r) => r.id);
    const ids = [...ranked].sort((a, b) => order.get(a)! - order.get(b)!);
    return { ids, events: [{ type: 'adol-retrieval', mode: 'semantic', k: semConfig.k, ranked }] };
  }
  if (options.retrieval === 'semantic') {
    const semantic = state.semantic!;
    const query = queryText(turn.user);
    if (!queryVectors.has(query)) {
      // One batch per task: every query of the task at once.
      const texts = [...new Set(task.turns.map((t) => queryText(t.user)))].filter((t) => !queryVectors.has(t));
      const vecs = await semantic.encoder.embed(texts);
      texts.forEach((t, i) => queryVectors.set(t, vecs[i]!));
    }
    const ranked = semantic.search(queryVectors.get(query)!);
    // A filtered tools/list keeps the server's list order (the ranking is not part of the
    // response); the same set then renders, deduplicates and counts identically.
    const ids = [...ranked].sort((a, b) => order.get(a)! - order.get(b)!);
    return { ids, events: [{ type: 'adol-retrieval', mode: 'semantic', k: semConfig.k, ranked }] };
  }
  if (options.retrieval === 'tags') {
    const sel = selectByTags(turn.user, catalog.tools, tagConfig);
    if (sel.fallback) state.stats.tagFallbackTurns++;
    return {
      ids: sel.toolIds,
      events: [{ type: 'adol-retrieval', mode: 'tags', tags: sel.tags, fallback: sel.fallback, selected: sel.toolIds.length }],
    };
  }
  return { ids: catalog.tools.map((t) => t.id), events: [] };
}

function describeAdol({ options, semConfig, tagConfig, roConfig, dedupConfig }: Settings, state: State): PipelineSettings {
  const { selections, retriever, semantic, encoder, external, templatesSection, stats } = state;
  const requested = [...selections.values()].filter((s) => s.requested.length).length;
  return {
    fitted: options.retrieval === 'semantic' ? retrieverFit(retriever, state.fitted) : [],
    retrieval:
      options.retrieval === 'semantic' && retriever
        ? {
            ...retrieverRecord(retriever),
            k: semConfig.k,
            toolText: retriever.toolText,
            query: describeQueryMode(DEFAULT_QUERY_MODE),
          }
        : options.retrieval === 'semantic' && semantic
          ? {
              retriever: `dense:${encoder?.name ?? '?'} weighted components (draft form)`,
              encoder: encoder?.name ?? '?',
              encoderDescription: encoder?.description,
              index: semantic.indexNote,
              k: semConfig.k,
              toolText: `weighted mean of name, description, parameters embeddings (${semConfig.weights.name}:${semConfig.weights.description}:${semConfig.weights.parameters})`,
              query: 'user message',
            }
          : undefined,
    adol: {
      externalTemplates: external
        ? { templates: external.defs.length, tokens: templatesSection ? state.tokens.count(templatesSection.text) : 0 }
        : undefined,
      tagFallbackTurns: options.retrieval === 'tags' ? stats.tagFallbackTurns : undefined,
    },
    details: {
      mechanisms: { ref: options.ref, short: options.short, requireOutput: options.requireOutput, retrieval: options.retrieval },
      dedup: options.ref ? dedupConfig : undefined,
      shortMode: options.short ? (options.shortMode ?? DEFAULT_SHORT_MODE) : undefined,
      requireOutput: options.requireOutput
        ? { ...roConfig, toolsOffering: [...selections.values()].filter((s) => s.offered.length).length, toolsRequesting: requested }
        : undefined,
      semantic:
        options.retrieval === 'semantic'
          ? { ...semConfig, retriever: retriever?.name, encoder: encoder?.description ?? semConfig.encoder, index: semantic?.indexNote }
          : undefined,
      tags: options.retrieval === 'tags' ? tagConfig : undefined,
      turns: stats.turns,
      meanListedTools: stats.turns ? stats.selectedTotal / stats.turns : 0,
    },
  };
}

/**
 * The shared transcript of turn j with requireOutput applied: each call carries the rule's
 * `requireOutput` and each result is the trimmed sample response. Built by editing the
 * shared transcript line by line, so everything else stays byte-identical to it.
 */
function trimmedTranscript(
  catalog: Catalog,
  toolResultsById: ReadonlyMap<string, ToolResult>,
  j: number,
  turn: TaskTurn,
  selections: ReadonlyMap<string, OutputSelection>,
  propertyName = DEFAULT_REQUIRE_OUTPUT.propertyName,
): TurnTranscript {
  const direct = directTranscript(catalog, j, turn);
  const lines = direct.section.text.replace(/\n$/, '').split('\n');
  const callIdx: number[] = [];
  const resultIdx: number[] = [];
  lines.forEach((l, i) => {
    if (l.startsWith('Assistant → tool call ')) callIdx.push(i);
    else if (l.startsWith('Tool result (')) resultIdx.push(i);
  });
  if (callIdx.length !== turn.tools.length || resultIdx.length !== turn.tools.length)
    throw new Error(`adol: unexpected transcript shape for turn ${j + 1}`);
  const results = [...direct.results];
  const measuredResults = [...direct.measuredResults];
  turn.tools.forEach((id, k) => {
    const tool = catalog.tools.find((t) => t.id === id)!;
    const requested = selections.get(id)?.requested ?? [];
    const value = toolResultsById.get(id)?.value;
    if (!requested.length || value === undefined) return;
    const prefix = `Assistant → tool call ${tool.name} `;
    const callLine = lines[callIdx[k]!]!;
    if (!callLine.startsWith(prefix)) throw new Error(`adol: unexpected call line for ${id}`);
    const args = JSON.parse(callLine.slice(prefix.length)) as Record<string, unknown>;
    lines[callIdx[k]!] = `${prefix}${JSON.stringify({ ...args, [propertyName]: requested })}`;
    const trimmed = resultLine(tool.name, JSON.stringify(trimResponse(value, requested)));
    lines[resultIdx[k]!] = trimmed.slice(0, -1);
    const m = measuredResults.indexOf(results[k]!);
    if (m >= 0) measuredResults[m] = trimmed;
    results[k] = trimmed;
  });
  return { ...direct, section: section('history', direct.section.label, lines.join('\n'), false), results, measuredResults };
}
