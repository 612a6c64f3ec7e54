import { createHash } from 'node:crypto';
import { ownSourceFile } from '../../util/own-source.ts';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CatalogTool } from '../../catalog/types.ts';
import { writeFileAtomic } from '../../util/files.ts';
import { readJsonFile, type JsonFileFormat } from '../../util/json-file.ts';
import { DEFAULT_QUERY_MODE } from '../query.ts';
import { rankOrder } from '../rank-order.ts';
import { diskScoreStore, withScoreStore } from '../score-store.ts';
import { minToolsOf, type FittedRetriever, type Retriever } from '../types.ts';
import {
  FEATURE,
  FEATURES,
  forEachFeatureRow,
  queryWords,
  toolWords,
  learnAssociations,
  WordAssociations,
  type AssociationExample,
  type Feature,
  type QueryWords,
  type ToolWords,
} from './features.ts';
import { predict, trainLogistic, type LogisticModel } from './logistic.ts';
import { blockRows } from '../../util/block-rows.ts';
import { DEFAULT_TRAINING_DESCRIPTION, trainingSetFor, type TrainingSet } from './training-set.ts';

/** Tools per training turn the model learns to reorder: the union of the first stages' top CANDIDATES, plus the needed ones. */
const CANDIDATES = 30;

export interface LearnedOptions {
  bm25: Retriever;
  dense: Retriever;
  /** Training data for ranking the given tools (default: every labelled source but theirs, ./training-set.ts). */
  training?: (tools: readonly CatalogTool[]) => TrainingSet;
  /** What a given training set holds, in one line (recorded as the retriever's `fittedOn`). */
  fittedOn?: string;
  /** Where trained models are cached (default `.cache/retrieval` under the working directory); `false` = never. */
  cacheDir?: string | false;
  /** Keep scores on disk beside the model (default true, when models are cached); false ranks every query. */
  scoreCache?: boolean;
  name?: string;
  /** Developer-vocabulary expansion in the features' words (default true). */
  vocabulary?: boolean;
  /** Features held at 0 in training and scoring (ablations). */
  without?: readonly Feature[];
}

/** How the features are computed: part of a trained model's identity. */
interface FeatureOptions {
  vocabulary: boolean;
  disabled: number[];
}

export interface TrainedReranker {
  model: LogisticModel;
  associations: WordAssociations;
  /** Ids of every task a training turn came from (never an evaluated task). */
  trainingTaskIds: readonly string[];
  source: string;
}

/** A trained reranker as saved in the cache folder (its word associations as entries). */
type SavedReranker = Omit<TrainedReranker, 'associations' | 'trainingTaskIds' | 'model'> & {
  model: Omit<LogisticModel, 'features'> & { features: string[] };
  trainingTaskIds: string[];
  associations: [string, string, number][];
};

const numbers = { type: 'array', items: { type: 'number' } } as const;

const SAVED_RERANKER_JSON: JsonFileFormat<SavedReranker> = {
  what: 'a learned reranker saved by tooltax (delete the file to train it again)',
  schema: {
    type: 'object',
    required: ['model', 'associations', 'trainingTaskIds', 'source'],
    properties: {
      model: {
        type: 'object',
        required: ['features', 'mean', 'std', 'weights', 'bias', 'examples', 'positives', 'iterations', 'finalLoss'],
        properties: {
          features: { type: 'array', items: { type: 'string' } },
          mean: numbers,
          std: numbers,
          weights: numbers,
          bias: { type: 'number' },
          examples: { type: 'integer' },
          positives: { type: 'integer' },
          iterations: { type: 'integer' },
          finalLoss: { type: 'number' },
        },
      },
      associations: {
        type: 'array',
        items: {
          type: 'array',
          items: [{ type: 'string' }, { type: 'string' }, { type: 'number' }],
          minItems: 3,
          maxItems: 3,
        },
      },
      trainingTaskIds: { type: 'array', items: { type: 'string' } },
      source: { type: 'string' },
    },
  },
};

/** Top-n indexes of a score list (ties in catalog order). */
function topIndexes(scores: Float64Array, n: number): number[] {
  return [...rankOrder(scores).subarray(0, n)];
}

/**
 * Train the reranker: per training source, first-stage scores on its own catalog and candidates
 * per turn; word associations cross-fitted leave-one-source-out (below); then a
 * logistic regression over every source's rows, each row weighing the same (weighting each
 * source the same in total measured worse on every left-out suite: docs/retrieval.md).
 * Deterministic: no randomness anywhere, every collection in a fixed order.
 */
export async function trainReranker(
  set: TrainingSet,
  bm25: Retriever,
  dense: Retriever,
  features: FeatureOptions = { vocabulary: true, disabled: [] },
): Promise<TrainedReranker> {
  if (set.groups.every((g) => g.turns.length === 0)) throw new Error('trainReranker: the training set has no labelled turn');
  interface Example {
    group: number;
    q: number;
    query: QueryWords;
    pool: number[];
    needed: Set<number>;
    fold: string;
  }
  const examples: Example[] = [];
  const scored: { bs: Float64Array[]; ds: Float64Array[]; words: ToolWords[] }[] = [];
  for (const [g, group] of set.groups.entries()) {
    const [b, d] = await Promise.all([bm25.fit(group.tools), dense.fit(group.tools)]);
    const queries = group.turns.map((t) => t.query);
    const [bs, ds] = await Promise.all([b.score(queries), d.score(queries)]);
    scored.push({ bs, ds, words: group.tools.map((t) => toolWords(t, features.vocabulary)) });
    const index = new Map(group.tools.map((t, i) => [t.id, i]));
    group.turns.forEach((turn, q) => {
      const needed = new Set(turn.tools.map((id) => index.get(id)!));
      const pool = [...new Set([...topIndexes(bs[q]!, CANDIDATES), ...topIndexes(ds[q]!, CANDIDATES), ...needed])].sort((x, y) => x - y);
      // Cross-fitted: a turn's association feature comes from associations learned without its
      // source (leave-one-source-out; with a single source, without its server), so the
      // regression weighs them as they carry to a catalog never seen (a user's), not as they fit
      // the training phrasing.
      const fold = set.groups.length > 1 ? group.suite : group.tools[index.get(turn.tools[0]!)!]!.server;
      examples.push({ group: g, q, query: queryWords(turn.query, features.vocabulary), pool, needed, fold });
    });
  }
  // Without the association feature (an ablation) there is nothing to learn: none are kept.
  const associations = features.disabled.includes(FEATURE.wordAssociation)
    ? { all: new WordAssociations(new Map()), leaveOut: new Map(examples.map((e) => [e.fold, new WordAssociations(new Map())])) }
    : learnAssociations(
        examples.map((e): AssociationExample => ({
          query: e.query,
          tools: e.pool.map((i) => scored[e.group]!.words[i]!),
          needed: e.pool.map((i) => e.needed.has(i)),
        })),
        examples.map((e) => e.fold),
      );
  const folds = associations.leaveOut;
  // One row-major matrix of the pools' rows: as small arrays of their own, each with its own
  // malloc'd backing store, they left the main allocator arena tens of MB larger.
  const rows = examples.reduce((s, e) => s + e.pool.length, 0);
  const x = new Float64Array(rows * FEATURES.length);
  const y: number[] = [];
  for (const e of examples) {
    const inPool = new Set(e.pool);
    const { bs, ds, words } = scored[e.group]!;
    forEachFeatureRow(
      e.query,
      words,
      bs[e.q]!,
      ds[e.q]!,
      folds.get(e.fold)!,
      (i, row) => {
        if (!inPool.has(i)) return;
        x.set(row, y.length * FEATURES.length);
        y.push(e.needed.has(i) ? 1 : 0);
      },
      features.disabled,
    );
  }
  return {
    model: trainLogistic(FEATURES, x, y),
    associations: associations.all,
    trainingTaskIds: [...new Set(set.groups.flatMap((g) => g.turns.map((t) => t.taskId)))],
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
  features: FeatureOptions,
  cacheDir: string | false,
): Promise<TrainedReranker & { cacheKey?: string }> {
  if (cacheDir === false) return trainReranker(set, bm25, dense, features);
  const hash = createHash('sha256');
  for (const file of MODEL_SOURCES) hash.update(readFileSync(ownSourceFile(new URL(file, import.meta.url))));
  hash.update(
    JSON.stringify([
      set.source,
      set.groups.map((g) => [g.suite, g.turns, g.tools.map((t) => [t.id, t.summary, t.tags, t.definition])]),
      bm25.description,
      dense.description,
      dense.toolText,
      features,
    ]),
  );
  const cacheKey = hash.digest('hex').slice(0, 16);
  const file = join(cacheDir, `learned-${cacheKey}.json`);
  if (existsSync(file)) {
    const saved = readJsonFile(file, SAVED_RERANKER_JSON);
    return { ...saved, associations: WordAssociations.fromEntries(saved.associations), cacheKey };
  }
  const fresh = await trainReranker(set, bm25, dense, features);
  writeFileAtomic(file, `${JSON.stringify({ ...fresh, associations: fresh.associations.entries() })}\n`);
  return { ...fresh, cacheKey };
}

/**
 * `learned`: the reranker the paper proposes as future work (§8), a logistic regression on
 * (query, tool) features (./features.ts) over BM25 and dense first stages. For each catalog it
 * ranks it is trained on every labelled source but that catalog's own (./training-set.ts,
 * leave-one-suite-out), once per such set and process (and on disk by content). Its score is
 * P(needed), in [0, 1].
 */
export function createLearnedRetriever(
  options: LearnedOptions,
): Retriever & { trained(tools?: readonly CatalogTool[]): Promise<TrainedReranker> } {
  const training = options.training ?? ((tools: readonly CatalogTool[]) => trainingSetFor(tools, DEFAULT_QUERY_MODE));
  const cacheDir = options.cacheDir ?? join('.cache', 'retrieval');
  const features: FeatureOptions = {
    vocabulary: options.vocabulary ?? true,
    disabled: (options.without ?? []).map((f) => FEATURES.indexOf(f)).sort((a, b) => a - b),
  };
  const models = new Map<string, Promise<TrainedReranker & { cacheKey?: string }>>();
  // The model for ranking `tools`: one per distinct training set (by its sources).
  const train = (tools: readonly CatalogTool[]) => {
    const set = training(tools);
    let m = models.get(set.source);
    if (!m) models.set(set.source, (m = cachedTraining(set, options.bm25, options.dense, features, cacheDir)));
    return m;
  };
  return {
    name: options.name ?? 'learned',
    description: `logistic-regression reranker over ${options.bm25.name} + ${options.dense.name} (${FEATURES.length - features.disabled.length} features${options.without?.length ? `; without ${options.without.join(', ')}` : ''}${features.vocabulary ? '' : '; no developer vocabulary'}), trained leave-one-suite-out on labelled requests of other catalogs`,
    toolText: `${options.bm25.name}: ${options.bm25.toolText}; ${options.dense.name}: ${options.dense.toolText}; name, server and parameter words`,
    scale: 'probability',
    fittedOn: options.training ? (options.fittedOn ?? 'a training set given by the caller') : DEFAULT_TRAINING_DESCRIPTION,
    minTools: minToolsOf([options.bm25, options.dense]),
    // Without tools: the model a catalog the harness has never seen gets (every source).
    trained: (tools = []) => train(tools),
    async fit(tools: readonly CatalogTool[]): Promise<FittedRetriever> {
      const [model, b, d] = await Promise.all([train(tools), options.bm25.fit(tools), options.dense.fit(tools)]);
      const words: ToolWords[] = tools.map((t) => toolWords(t, features.vocabulary));
      const computed: FittedRetriever = {
        ids: b.ids,
        fittedOn: model.source,
        async score(queries) {
          const [bs, ds] = await Promise.all([b.score(queries), d.score(queries)]);
          const rows = blockRows(Float64Array, queries.length, words.length);
          return queries.map((q, i) => {
            const query: QueryWords = queryWords(q, features.vocabulary);
            const out = rows[i]!;
            forEachFeatureRow(
              query,
              words,
              bs[i]!,
              ds[i]!,
              model.associations,
              (t, row) => (out[t] = predict(model.model, row)),
              features.disabled,
            );
            return out;
          });
        },
      };
      if (cacheDir === false || options.scoreCache === false || !model.cacheKey) return computed;
      const toolsKey = createHash('sha256')
        .update(JSON.stringify(tools.map((t) => [t.id, t.server, t.name, t.summary, t.tags, t.definition])))
        .digest('hex')
        .slice(0, 16);
      const stored = withScoreStore(
        computed,
        diskScoreStore(join(cacheDir, `learned-scores-${model.cacheKey}-${toolsKey}`), computed.ids.length),
      );
      return { ...stored, fittedOn: model.source };
    },
  };
}
