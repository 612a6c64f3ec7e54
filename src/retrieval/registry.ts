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
import { createLearnedRetriever } from './learned/retriever.ts';
import { memoryScoreStore, withScoreStore } from './score-store.ts';
import type { FittedRetriever, Retriever } from './types.ts';

/**
 * Every retriever by name. Adding one is a file that returns a Retriever and one line in
 * `FIXED` (or a prefix rule like `dense:`). Fitting is memoised per (retriever, tool list), so
 * a fusion or the learned reranker reuses the BM25 and dense fits the bench already made.
 */

/** The retriever the bench, B3, Tool Attention and ADOL use unless told otherwise. */
export const DEFAULT_RETRIEVER = 'learned';
/** The encoder of the dense half of the hybrids and of the learned reranker's dense feature. */
const HYBRID_ENCODER = 'use-lite';

const FIXED: Record<string, () => Retriever> = {
  bm25: () => createBm25Retriever(),
  'bm25:plain': () => createBm25Retriever({ name: 'bm25:plain', vocabulary: false, entityCues: false }),
  'bm25:no-vocabulary': () => createBm25Retriever({ name: 'bm25:no-vocabulary', vocabulary: false }),
  'bm25:no-cues': () => createBm25Retriever({ name: 'bm25:no-cues', entityCues: false }),
  'bm25:flat': () =>
    createBm25Retriever({ name: 'bm25:flat', weights: { name: 1, server: 1, description: 1, parameters: 1, parameterDescriptions: 1 } }),
  'bm25:wink': createWinkBm25Retriever,
  'bm25:okapi': createOkapiBm25Retriever,
  'hybrid-rrf': () =>
    createFusionRetriever('hybrid-rrf', [retrieverByName('bm25'), retrieverByName(`dense:${HYBRID_ENCODER}`)], { kind: 'rrf', k: RRF_K }),
  'hybrid-norm': () =>
    createFusionRetriever('hybrid-norm', [retrieverByName('bm25'), retrieverByName(`dense:${HYBRID_ENCODER}`)], {
      kind: 'norm',
      weights: [0.5, 0.5],
    }),
  learned: () => createLearnedRetriever({ bm25: retrieverByName('bm25'), dense: retrieverByName(`dense:${HYBRID_ENCODER}`) }),
};

/** Names `--retriever all` runs, in table order (dense:minilm only where its model is available). */
export function allRetrieverNames(): string[] {
  return [
    'bm25',
    'bm25:plain',
    'bm25:no-vocabulary',
    'bm25:no-cues',
    'bm25:flat',
    'bm25:wink',
    'bm25:okapi',
    'dense:use-lite',
    'dense:tfidf',
    ...(process.env.TOOLTAX_MINILM_DIR ? ['dense:minilm'] : []),
    'hybrid-rrf',
    'hybrid-norm',
    'learned',
  ];
}

export function isRetrieverName(name: string): boolean {
  if (name in FIXED) return true;
  if (!name.startsWith('dense:')) return false;
  const model = name.slice('dense:'.length);
  return isEncoderName(model) || (existsSync(model) && statSync(model).isDirectory());
}

const created = new Map<string, Retriever>();

/**
 * A retriever by name: a fixed one, `dense:<encoder>` (use-lite, minilm, tfidf) or
 * `dense:<local transformers.js model directory>` (any sentence model, mean-pooled).
 */
export function retrieverByName(name: string): Retriever {
  let r = created.get(name);
  if (r) return r;
  if (!isRetrieverName(name))
    throw new Error(
      `unknown retriever ${JSON.stringify(name)}; expected one of ${allRetrieverNames().join(', ')}, or dense:<model directory>`,
    );
  const model = name.slice('dense:'.length);
  const base = name in FIXED ? FIXED[name]!() : createDenseRetriever(model, (catalog) => encoderFor(model, catalog.tools));
  created.set(name, (r = memoised(base)));
  return r;
}

// Encoders by tool list: TF-IDF is fitted on the catalog's tool texts, the others load once.
const encoders = new WeakMap<readonly CatalogTool[], Map<string, Promise<Encoder>>>();

function encoderFor(model: string, tools: readonly CatalogTool[]): Promise<Encoder> {
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
  let byName = encoders.get(tools);
  if (!byName) encoders.set(tools, (byName = new Map()));
  if (!byName.has(encoder.name)) byName.set(encoder.name, Promise.resolve(encoder));
}

function memoised(retriever: Retriever): Retriever {
  const fits = new WeakMap<readonly CatalogTool[], Promise<FittedRetriever>>();
  const keeping = new WeakMap<readonly CatalogTool[], Promise<FittedRetriever>>();
  const fitUnkept = (tools: readonly CatalogTool[]) => {
    let f = fits.get(tools);
    if (!f) fits.set(tools, (f = retriever.fit(tools)));
    return f;
  };
  return {
    ...retriever,
    fit(tools) {
      let f = keeping.get(tools);
      if (!f)
        keeping.set(
          tools,
          (f = fitUnkept(tools).then((fitted) =>
            fitted.keepsScores ? fitted : withScoreStore(fitted, memoryScoreStore(MAX_MEMO_SCORES)),
          )),
        );
      return f;
    },
    fitUnkept,
  };
}

/**
 * Scores kept per fitted retriever at most (in numbers): 64 MB, then the memo starts over. B3,
 * Tool Attention, the ablations, the fusions, the learned reranker and the retrieval study ask
 * the same fitted retriever about the same messages.
 */
const MAX_MEMO_SCORES = 8_000_000;
