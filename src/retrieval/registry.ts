import { existsSync, statSync } from 'node:fs';
import type { Catalog, CatalogTool } from '../catalog/types.ts';
import { createMiniLmEncoder } from '../embed/minilm.ts';
import { isEncoderName } from '../embed/registry.ts';
import type { Encoder } from '../embed/types.ts';
import { createBm25Retriever } from './bm25.ts';
import { createOkapiBm25Retriever, createWinkBm25Retriever } from './bm25-alternatives.ts';
import { createDenseRetriever } from './dense.ts';
import { createBenchEncoder } from './encoder.ts';
import { createFusionRetriever, RRF_K } from './fusion.ts';
import { releaseTrainingGroups } from './learned/training-set.ts';
import { createLearnedRetriever } from './learned/retriever.ts';
import { createClauseRetriever } from './multi-intent.ts';
import type { FittedRetriever, Retriever } from './types.ts';
import { checkedRegistry, missingText, RegistryError } from '../util/registry.ts';
import { cached, runCache } from '../util/run-scope.ts';

/**
 * Every retriever by name. Adding one is a file that returns a Retriever and one line in
 * `FIXED` (or a prefix rule like `dense:`). Fitting is memoised per (retriever, tool list), so
 * a fusion or the learned reranker reuses the BM25 and dense fits the bench already made.
 */

/** The retriever the bench, B3, Tool Attention and ADOL use unless told otherwise. */
export const DEFAULT_RETRIEVER = 'learned+hybrid';
/** The encoder of the dense half of the hybrids and of the learned reranker's dense feature. */
const HYBRID_ENCODER = 'use-lite';

/**
 * What a registered retriever is to the retrieval tables: a method (the default among them), an
 * untuned BM25 library (the bar the default must clear on every suite), a variant (one part
 * added or changed, to show what it does), or an ablation (one hand-written or fitted part of a
 * method removed; an ablation of the default must not beat it).
 */
export type RetrieverRole = 'method' | 'untuned-library' | 'variant' | 'ablation';

export interface RetrieverEntry {
  name: string;
  role: RetrieverRole;
  /** For a variant or an ablation: the method it changes, and the part it adds, changes or removes. */
  of?: string;
  part?: string;
  create: () => Retriever;
}

const dense = () => retrieverByName(`dense:${HYBRID_ENCODER}`);
const learnedOver =
  (name: string, bm25: string, more: Partial<Parameters<typeof createLearnedRetriever>[0]> = {}) =>
  () =>
    createLearnedRetriever({ name, bm25: retrieverByName(bm25), dense: dense(), ...(keepScores() ? {} : { scoreCache: false }), ...more });
/** Min–max normalised fusion, equal weights (not tuned). */
const normOf = (name: string, parts: readonly string[]) => () =>
  createFusionRetriever(
    name,
    parts.map((p) => retrieverByName(p)),
    { kind: 'norm', weights: parts.map(() => 1 / parts.length) },
  );

/** Every fixed retriever, in table order. Adding one is a file that returns a Retriever and one line here. */
const RETRIEVERS: readonly RetrieverEntry[] = [
  { name: 'bm25', role: 'method', create: () => createBm25Retriever() },
  { name: 'bm25:plain', role: 'untuned-library', create: () => createBm25Retriever({ name: 'bm25:plain', vocabulary: false }) },
  { name: 'bm25:wink', role: 'untuned-library', create: createWinkBm25Retriever },
  { name: 'bm25:okapi', role: 'untuned-library', create: createOkapiBm25Retriever },
  {
    name: 'bm25:fields',
    role: 'variant',
    of: 'bm25',
    part: 'hand-written field weights instead of one flat document',
    create: () => createBm25Retriever({ name: 'bm25:fields', document: 'fields' }),
  },
  {
    name: 'bm25:cues',
    role: 'variant',
    of: 'bm25',
    part: 'entity-cue words added to the query',
    create: () => createBm25Retriever({ name: 'bm25:cues', entityCues: true }),
  },
  { name: 'dense:use-lite', role: 'method', create: () => denseRetriever('use-lite') },
  { name: 'dense:tfidf', role: 'method', create: () => denseRetriever('tfidf') },
  {
    name: 'hybrid-rrf',
    role: 'method',
    create: () => createFusionRetriever('hybrid-rrf', [retrieverByName('bm25'), dense()], { kind: 'rrf', k: RRF_K }),
  },
  { name: 'hybrid-norm', role: 'method', create: normOf('hybrid-norm', ['bm25', `dense:${HYBRID_ENCODER}`]) },
  { name: 'learned', role: 'method', create: learnedOver('learned', 'bm25') },
  { name: 'learned+hybrid', role: 'method', create: normOf('learned+hybrid', ['learned', 'hybrid-norm']) },
  {
    name: 'learned+hybrid:no-vocabulary',
    role: 'ablation',
    of: 'learned+hybrid',
    part: 'developer vocabulary',
    create: normOf('learned+hybrid:no-vocabulary', ['learned:no-vocabulary', 'hybrid-norm:no-vocabulary']),
  },
  {
    name: 'learned+hybrid:no-cues',
    role: 'ablation',
    of: 'learned+hybrid',
    part: 'entity-cue feature',
    create: normOf('learned+hybrid:no-cues', ['learned:no-cues', 'hybrid-norm']),
  },
  {
    name: 'learned+hybrid:no-associations',
    role: 'ablation',
    of: 'learned+hybrid',
    part: 'learned word associations',
    create: normOf('learned+hybrid:no-associations', ['learned:no-associations', 'hybrid-norm']),
  },
  {
    name: 'learned+hybrid+clauses',
    role: 'variant',
    of: 'learned+hybrid',
    part: 'each clause of a request ranked too (several intents)',
    create: () => createClauseRetriever('learned+hybrid+clauses', retrieverByName('learned+hybrid')),
  },
];

/** The parts the ablations above are made of, registered so their fits are shared, listed in no table. */
const PARTS: readonly RetrieverEntry[] = [
  {
    name: 'learned:no-vocabulary',
    role: 'ablation',
    of: 'learned',
    part: 'developer vocabulary',
    create: learnedOver('learned:no-vocabulary', 'bm25:plain', { vocabulary: false }),
  },
  {
    name: 'learned:no-cues',
    role: 'ablation',
    of: 'learned',
    part: 'entity-cue feature',
    create: learnedOver('learned:no-cues', 'bm25', { without: ['entity cue matches a rare parameter'] }),
  },
  {
    name: 'learned:no-associations',
    role: 'ablation',
    of: 'learned',
    part: 'learned word associations',
    create: learnedOver('learned:no-associations', 'bm25', { without: ['word association'] }),
  },
  {
    name: 'hybrid-norm:no-vocabulary',
    role: 'ablation',
    of: 'hybrid-norm',
    part: 'developer vocabulary',
    create: normOf('hybrid-norm:no-vocabulary', ['bm25:plain', `dense:${HYBRID_ENCODER}`]),
  },
];

/**
 * Checked when this module loads and read-only (../util/registry.ts): names unique, a variant or
 * an ablation names a registered method it changes and the part it changes, a method or a
 * library names neither. That each entry creates the retriever of its name (results record
 * the name) is checked when retrieverByName first creates it: creating them here would fix
 * their settings (TOOLTAX_KEEP_SCORES) before a script sets them.
 */
const FIXED = new Map(
  checkedRegistry('retriever registry', [...RETRIEVERS, ...PARTS], (e) => e.name, entryProblem).map((e) => [e.name, e] as const),
);

function entryProblem(entry: RetrieverEntry, all: readonly RetrieverEntry[]): string | undefined {
  const changes = entry.role === 'variant' || entry.role === 'ablation';
  if (!changes)
    return entry.of !== undefined || entry.part !== undefined ? `a ${entry.role} changes no method; expected no "of" or "part"` : undefined;
  if (!all.some((other) => other.name === entry.of)) return `a ${entry.role} of ${JSON.stringify(entry.of)}, which is not registered`;
  return missingText(entry.part, `part (what the ${entry.role} changes)`);
}

/** The registered entry of a name, with dense:minilm as a method when its model is there. */
export function retrieverEntry(name: string): RetrieverEntry | undefined {
  return FIXED.get(name) ?? (name.startsWith('dense:') ? { name, role: 'method', create: () => retrieverByName(name) } : undefined);
}

/** Names `--retriever all` runs, in table order (dense:minilm only where its model is available). */
export function allRetrieverNames(): string[] {
  const names = RETRIEVERS.map((e) => e.name);
  if (process.env.TOOLTAX_MINILM_DIR) names.splice(names.indexOf('dense:tfidf') + 1, 0, 'dense:minilm');
  return names;
}

export function isRetrieverName(name: string): boolean {
  if (FIXED.has(name)) return true;
  if (!name.startsWith('dense:')) return false;
  const model = name.slice('dense:'.length);
  return isEncoderName(model) || (existsSync(model) && statSync(model).isDirectory());
}

const CREATED = runCache('retrievers by name, each fitted once per tool list', () => new Map<string, Retriever>());

/**
 * A retriever by name: a fixed one, `dense:<encoder>` (use-lite, minilm, tfidf) or
 * `dense:<local transformers.js model directory>` (any sentence model, mean-pooled).
 */
export function retrieverByName(name: string): Retriever {
  const created = cached(CREATED);
  let r = created.get(name);
  if (r) return r;
  if (!isRetrieverName(name))
    throw new Error(
      `unknown retriever ${JSON.stringify(name)}; expected one of ${allRetrieverNames().join(', ')}, or dense:<model directory>`,
    );
  const fixed = FIXED.get(name);
  const base = fixed && !name.startsWith('dense:') ? fixed.create() : denseRetriever(name.slice('dense:'.length));
  if (base.name !== name)
    throw new RegistryError(
      `retriever registry: ${JSON.stringify(name)} creates a retriever named ${JSON.stringify(base.name)}; expected the same`,
    );
  created.set(name, (r = memoised(base)));
  return r;
}

function denseRetriever(model: string): Retriever {
  return createDenseRetriever(model, (catalog) => encoderFor(model, catalog.tools), keepScores() ? {} : { cacheDir: false });
}

/**
 * The learned and dense retrievers keep their scores on disk unless
 * TOOLTAX_KEEP_SCORES=0: what a speed benchmark of ranking itself sets (scripts/bench-retrieval.ts),
 * so each query is ranked, not looked up. Results are the same either way.
 */
function keepScores(): boolean {
  return process.env.TOOLTAX_KEEP_SCORES !== '0';
}

// Encoders by tool list: TF-IDF is fitted on the catalog's tool texts, the others load once.
const ENCODERS = runCache('encoders by tool list and model', () => new WeakMap<readonly CatalogTool[], Map<string, Promise<Encoder>>>());

function encoderFor(model: string, tools: readonly CatalogTool[]): Promise<Encoder> {
  const encoders = cached(ENCODERS);
  let byName = encoders.get(tools);
  if (!byName) encoders.set(tools, (byName = new Map()));
  let e = byName.get(model);
  if (!e) {
    const catalog: Catalog = { name: 'retrieval', source: 'retrieval', servers: [], tools: [...tools] };
    e = isEncoderName(model) ? createBenchEncoder(model, catalog) : createMiniLmEncoder({ modelDir: model });
    byName.set(model, e);
  }
  return e;
}

/** Use a given encoder (the bench's, already warm) for `dense:<its name>` on these tools. */
export function shareEncoder(tools: readonly CatalogTool[], encoder: Encoder): void {
  const encoders = cached(ENCODERS);
  let byName = encoders.get(tools);
  if (!byName) encoders.set(tools, (byName = new Map()));
  if (!byName.has(encoder.name)) byName.set(encoder.name, Promise.resolve(encoder));
}

/**
 * One fit per tool list, shared by every user of the retriever (B3, Tool Attention, the
 * ablations, the fusions and the learned reranker's first stages). Scores are not kept in
 * memory here: the learned and dense retrievers keep theirs on disk, and BM25 and TF-IDF score
 * each message again (a memo of every message cost memory in every thread and made no run faster).
 */
function memoised(retriever: Retriever): Retriever {
  const fits = new WeakMap<readonly CatalogTool[], Promise<FittedRetriever>>();
  return {
    ...retriever,
    fit(tools) {
      let f = fits.get(tools);
      if (!f) fits.set(tools, (f = retriever.fit(tools)));
      return f;
    },
  };
}

/**
 * Trains, once and one after another, every registered learned model the run's catalogs need
 * (each learned retriever and ablation, for each tool list and for a catalog never seen), and
 * keeps them on disk (`.cache/retrieval`), where the bench's lanes then find them. Fresh
 * instances: what training leaves behind is garbage once this returns. Two lanes training the
 * same models at once in a cold run, beside everything else, was the run's memory peak.
 */
export async function trainLearnedModels(toolLists: readonly (readonly CatalogTool[])[]): Promise<number> {
  let trained = 0;
  for (const entry of FIXED.values()) {
    const retriever = entry.create();
    if (!retriever.trained) continue;
    for (const tools of [...toolLists, []]) {
      await retriever.trained(tools);
      trained++;
    }
  }
  // What training fitted on the sources' tool lists is not needed by the run.
  releaseTrainingGroups();
  return trained;
}
