import { FLOAT64, loadSegments, textKey, writeSegment } from '../util/vector-segments.ts';
import type { FittedRetriever } from './types.ts';

/**
 * Where a fitted retriever's scores are kept by query text (on disk: diskScoreStore). A query's
 * scores never depend on the others in its batch, so a kept array serves every later ask. The
 * arrays are shared: read-only.
 */
export interface ScoreStore {
  get(query: string): Float64Array | undefined;
  set(query: string, scores: Float64Array): void;
}

/** `fitted` scoring each distinct query once: kept queries come from the store, the others in one batch, then kept. */
export function withScoreStore(fitted: FittedRetriever, store: ScoreStore): FittedRetriever {
  return {
    ids: fitted.ids,
    ...(fitted.fittedOn ? { fittedOn: fitted.fittedOn } : {}),
    async score(queries) {
      const kept = queries.map((q) => store.get(q));
      const missing = [...new Set(queries.filter((_, i) => kept[i] === undefined))];
      const fresh = new Map<string, Float64Array>();
      if (missing.length) {
        const scores = await fitted.score(missing);
        missing.forEach((q, i) => {
          fresh.set(q, scores[i]!);
          store.set(q, scores[i]!);
        });
      }
      return queries.map((q, i) => kept[i] ?? fresh.get(q)!);
    },
  };
}

/**
 * Scores memoised on disk by content, in `dir` (whose name the caller makes from everything the
 * scores depend on: the learned reranker's model and catalog, the dense retriever's encoder and
 * tool vectors); each query by the sha256 of its text. Scores are stored as float64, so a
 * cached score is the computed one, bit for bit. B3, Tool Attention, ADOL and the retrieval
 * study, on both bench lanes and in later runs, score a message once.
 */
export function diskScoreStore(dir: string, dim: number): ScoreStore {
  let stored: Map<string, Float64Array> | undefined;
  const load = () => (stored ??= loadSegments(FLOAT64, dir, dim).vectors);
  // The scores by query text as well: hashing every asked text would cost more than a lookup.
  const byText = new Map<string, Float64Array>();
  // New scores are written in segments of SCORES_PER_SEGMENT (a task's turns arrive a few at a
  // time), the rest by flushDiskScores; scores not written are only computed again.
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
    unwritten.delete(flush);
  };
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
      if (pending.length === 1) holdUntilWritten(flush);
      if (pending.length >= SCORES_PER_SEGMENT) flush();
    },
  };
}

const SCORES_PER_SEGMENT = 512;
/**
 * The flushes of the stores that hold scores not yet on disk, and only those: a store leaves when
 * it has written them, so a run's stores (and their scores) are not kept once the run is over.
 */
const unwritten = new Set<() => void>();
/** Whether flushDiskScores is hooked to the process's exit (once, whatever the stores). */
let exitHookAdded = false;

function holdUntilWritten(flush: () => void): void {
  if (!exitHookAdded) process.once('exit', flushDiskScores);
  exitHookAdded = true;
  unwritten.add(flush);
}

/**
 * Writes the disk-stored scores not yet on disk. Called when a bench unit ends (a worker lane is
 * terminated, not exited) and when the process exits.
 */
export function flushDiskScores(): void {
  [...unwritten].forEach((f) => f());
}
