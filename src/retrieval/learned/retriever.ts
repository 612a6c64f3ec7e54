import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CatalogTool } from '../../catalog/types.ts';
import { writeFileAtomic } from '../../util/files.ts';
import { FLOAT64, loadSegments, textKey, writeSegment } from '../../util/vector-segments.ts';
import { DEFAULT_QUERY_MODE } from '../query.ts';
import { rankOrder } from '../rank-order.ts';
import { withScoreStore, type ScoreStore } from '../score-store.ts';
import type { FittedRetriever, Retriever } from '../types.ts';
import {
  FEATURES,
  forEachFeatureRow,
  queryWords,
  toolWords,
  learnAssociations,
  WordAssociations,
  type AssociationExample,
  type QueryWords,
  type ToolWords,
} from './features.ts';
import { predict, trainLogistic, type LogisticModel } from './logistic.ts';
import { blockRows } from '../../util/block-rows.ts';
import { DEFAULT_TRAINING_DESCRIPTION, defaultTrainingSet, type TrainingSet } from './training-set.ts';

/** Tools per training turn the model learns to reorder: the union of the first stages' top CANDIDATES, plus the needed ones. */
const CANDIDATES = 30;

export interface LearnedOptions {
  bm25: Retriever;
  dense: Retriever;
  /** Training data (default: the synthetic calibration tasks and history sample, ./training-set.ts). */
  training?: () => TrainingSet;
  /** What a given training set holds, in one line (recorded as the retriever's `fittedOn`). */
  fittedOn?: string;
  /** Where trained models are cached (default `.cache/retrieval` under the working directory); `false` = never. */
  cacheDir?: string | false;
  name?: string;
}

export interface TrainedReranker {
  model: LogisticModel;
  associations: WordAssociations;
  /** Ids of every task a training turn came from (never an evaluated task). */
  trainingTaskIds: readonly string[];
  source: string;
}

/** Top-n indexes of a score list (ties in catalog order). */
function topIndexes(scores: Float64Array, n: number): number[] {
  return [...rankOrder(scores).subarray(0, n)];
}

/**
 * Train the reranker: first-stage scores on the training catalog, candidates per turn, word
 * associations cross-fitted leave-one-server-out (below), then a logistic regression.
 * Deterministic: no randomness anywhere, every collection in a fixed order.
 */
export async function trainReranker(set: TrainingSet, bm25: Retriever, dense: Retriever): Promise<TrainedReranker> {
  const [b, d] = await Promise.all([firstStage(bm25, set.tools), firstStage(dense, set.tools)]);
  const queries = set.turns.map((t) => t.query);
  const [bs, ds] = await Promise.all([b.score(queries), d.score(queries)]);
  const words = set.tools.map(toolWords);
  const index = new Map(set.tools.map((t, i) => [t.id, i]));
  const examples = set.turns.map((turn, q) => {
    const needed = new Set(turn.tools.map((id) => index.get(id)!));
    const pool = [...new Set([...topIndexes(bs[q]!, CANDIDATES), ...topIndexes(ds[q]!, CANDIDATES), ...needed])].sort((x, y) => x - y);
    return { q, query: queryWords(turn.query), pool, needed };
  });
  const assocExample = (e: (typeof examples)[number]): AssociationExample => ({
    query: e.query,
    tools: e.pool.map((i) => words[i]!),
    needed: e.pool.map((i) => e.needed.has(i)),
  });
  // Leave-one-server-out: a turn's association feature comes from associations learned on the
  // turns of the other servers, so the regression weighs them as they carry to tools never seen
  // (a user's catalog), not as they fit the training templates.
  const foldOf = set.turns.map((t) => set.tools[index.get(t.tools[0]!)!]!.server);
  const associations = learnAssociations(
    examples.map(assocExample),
    examples.map((e) => foldOf[e.q]!),
  );
  const folds = associations.leaveOut;
  // One row-major matrix of the pools' rows (82,030 by default): as small arrays of their own,
  // each with its own malloc'd backing store, they left the main allocator arena at 47 MB.
  const x = new Float64Array(examples.reduce((s, e) => s + e.pool.length, 0) * FEATURES.length);
  const y: number[] = [];
  for (const e of examples) {
    const inPool = new Set(e.pool);
    forEachFeatureRow(e.query, words, bs[e.q]!, ds[e.q]!, folds.get(foldOf[e.q]!)!, (i, row) => {
      if (!inPool.has(i)) return;
      x.set(row, y.length * FEATURES.length);
      y.push(e.needed.has(i) ? 1 : 0);
    });
  }
  return {
    model: trainLogistic(FEATURES, x, y),
    associations: associations.all,
    trainingTaskIds: [...new Set(set.turns.map((t) => t.taskId))],
    source: set.source,
  };
}

// Every source file the trained model depends on: the cache key hashes their text, so a change
// to the features, the analyzer, the vocabulary, the training or how the dense encoder computes
// its vectors (use-lite.ts: batching, cache fingerprint) retrains instead of reusing.
const MODEL_SOURCES = [
  'features.ts',
  'logistic.ts',
  'retriever.ts',
  'training-set.ts',
  '../tokenize.ts',
  '../vocabulary.ts',
  '../bm25.ts',
  '../tool-fields.ts',
  '../rank-order.ts',
  '../dense.ts',
  '../../embed/use-lite.ts',
];

/**
 * trainReranker, memoised on disk by content: the key is a hash of the training turns, the
 * training catalog's tools, both first stages' descriptions and the model's source files. A
 * cached model parses back to the same doubles, so results are byte-identical either way.
 */
async function cachedTraining(
  set: TrainingSet,
  bm25: Retriever,
  dense: Retriever,
  cacheDir: string | false,
): Promise<TrainedReranker & { cacheKey?: string }> {
  if (cacheDir === false) return trainReranker(set, bm25, dense);
  const hash = createHash('sha256');
  for (const file of MODEL_SOURCES) hash.update(readFileSync(new URL(file, import.meta.url)));
  hash.update(
    JSON.stringify([
      set.source,
      set.turns,
      set.tools.map((t) => [t.id, t.summary, t.tags, t.definition]),
      bm25.description,
      dense.description,
      dense.toolText,
    ]),
  );
  const cacheKey = hash.digest('hex').slice(0, 16);
  const file = join(cacheDir, `learned-${cacheKey}.json`);
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Omit<TrainedReranker, 'associations'> & {
      associations: [string, string, number][];
    };
    return { ...saved, associations: WordAssociations.fromEntries(saved.associations), cacheKey };
  }
  const fresh = await trainReranker(set, bm25, dense);
  writeFileAtomic(file, `${JSON.stringify({ ...fresh, associations: fresh.associations.entries() })}\n`);
  return { ...fresh, cacheKey };
}

/**
 * A first stage's fit, without its memory of scores where it has one: the reranker keeps its
 * own scores, and a cold run's BM25 and dense scores of every message it ranked stayed in
 * memory beside them. Other users of the same fit still share it.
 */
function firstStage(retriever: Retriever, tools: readonly CatalogTool[]): Promise<FittedRetriever> {
  return retriever.fitUnkept ? retriever.fitUnkept(tools) : retriever.fit(tools);
}

/**
 * The reranker's scores memoised on disk by content, beside the model: the key is the model's
 * cache key (training data, first stages and every source file of the features and scoring)
 * and the catalog's tools as the first stages see them; each query by the sha256 of its text.
 * Scores are stored as float64, so a cached score is the computed one, bit for bit. B3, Tool
 * Attention, ADOL and the retrieval study, on both bench lanes and in later runs, score a
 * message once.
 */
function diskScoreStore(dir: string, dim: number): ScoreStore {
  let stored: Map<string, Float64Array> | undefined;
  const load = () => (stored ??= loadSegments(FLOAT64, dir, dim).vectors);
  // The scores by query text as well: hashing every asked text would cost more than a lookup.
  const byText = new Map<string, Float64Array>();
  // New scores are written in segments of SCORES_PER_SEGMENT (a task's turns arrive a few at a
  // time), the rest by flushLearnedScores; scores not written are only computed again.
  let pending: { query: string; key: string; scores: Float64Array }[] = [];
  const flush = () => {
    if (pending.length) {
      // The written segment's views (shared with worker threads started later) replace the computed arrays: the same values.
      const written = writeSegment(
        FLOAT64,
        dir,
        dim,
        pending.map((p) => [p.key, p.scores] as const),
      );
      for (const p of pending) {
        const v = written.get(p.key)!;
        load().set(p.key, v);
        byText.set(p.query, v);
      }
    }
    pending = [];
  };
  pendingFlushes.add(flush);
  if (pendingFlushes.size === 1) process.once('exit', flushLearnedScores);
  return {
    get(query) {
      let v = byText.get(query);
      if (v === undefined && (v = load().get(textKey(query)))) byText.set(query, v);
      return v;
    },
    set(query, scores) {
      const key = textKey(query);
      load().set(key, scores);
      byText.set(query, scores);
      pending.push({ query, key, scores });
      if (pending.length >= SCORES_PER_SEGMENT) flush();
    },
  };
}

const SCORES_PER_SEGMENT = 512;
const pendingFlushes = new Set<() => void>();

/**
 * Writes the learned scores not yet on disk. Called when a bench unit ends (a worker lane is
 * terminated, not exited) and when the process exits.
 */
export function flushLearnedScores(): void {
  pendingFlushes.forEach((f) => f());
}

/**
 * `learned`: the reranker the paper proposes as future work (§8), a logistic regression on
 * (query, tool) features (./features.ts) over BM25 and dense first stages, trained once per
 * process on the training set and applied to any catalog. Its score is P(needed), in [0, 1].
 */
export function createLearnedRetriever(options: LearnedOptions): Retriever & { trained(): Promise<TrainedReranker> } {
  const training = options.training ?? (() => defaultTrainingSet(DEFAULT_QUERY_MODE));
  const cacheDir = options.cacheDir ?? join('.cache', 'retrieval');
  let trained: Promise<TrainedReranker & { cacheKey?: string }> | undefined;
  const train = () => (trained ??= cachedTraining(training(), options.bm25, options.dense, cacheDir));
  return {
    name: options.name ?? 'learned',
    description: `logistic-regression reranker over ${options.bm25.name} + ${options.dense.name} (${FEATURES.length} features), trained on synthetic calibration + history turns`,
    toolText: `${options.bm25.name}: ${options.bm25.toolText}; ${options.dense.name}: ${options.dense.toolText}; name, server and parameter words`,
    scale: 'probability',
    fittedOn: options.training ? (options.fittedOn ?? 'a training set given by the caller') : DEFAULT_TRAINING_DESCRIPTION,
    trained: train,
    async fit(tools: readonly CatalogTool[]): Promise<FittedRetriever> {
      const [model, b, d] = await Promise.all([train(), firstStage(options.bm25, tools), firstStage(options.dense, tools)]);
      const words: ToolWords[] = tools.map(toolWords);
      const computed: FittedRetriever = {
        ids: b.ids,
        async score(queries) {
          const [bs, ds] = await Promise.all([b.score(queries), d.score(queries)]);
          const rows = blockRows(Float64Array, queries.length, words.length);
          return queries.map((q, i) => {
            const query: QueryWords = queryWords(q);
            const out = rows[i]!;
            forEachFeatureRow(query, words, bs[i]!, ds[i]!, model.associations, (t, row) => (out[t] = predict(model.model, row)));
            return out;
          });
        },
      };
      if (cacheDir === false || !model.cacheKey) return computed;
      const toolsKey = createHash('sha256')
        .update(JSON.stringify(tools.map((t) => [t.id, t.server, t.name, t.summary, t.tags, t.definition])))
        .digest('hex')
        .slice(0, 16);
      const stored = withScoreStore(
        computed,
        diskScoreStore(join(cacheDir, `learned-scores-${model.cacheKey}-${toolsKey}`), computed.ids.length),
      );
      return { ...stored, keepsScores: true };
    },
  };
}
