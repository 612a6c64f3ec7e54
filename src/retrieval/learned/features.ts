import type { CatalogTool } from '../../catalog/types.ts';
import { isObject } from '../../util/json.ts';
import { analyze } from '../tokenize.ts';
import { entityCueWords } from '../vocabulary.ts';

/**
 * The reranker's features for a (query, tool) pair, the kinds the paper's §8 names: the
 * first-stage scores (BM25, dense cosine), name-token match, server and entity cues, and
 * learned query-word/tool-word associations.
 */
export const FEATURES = [
  'bm25 / best bm25 of the query',
  'bm25 reciprocal rank',
  'dense cosine',
  'dense cosine − best cosine of the query',
  'dense reciprocal rank',
  'share of name words in the query',
  'server named in the query',
  'entity cue matches a parameter',
  'word association',
] as const;

/** The words of a tool the features compare with the query. */
export interface ToolWords {
  name: ReadonlySet<string>;
  /** Server name words, without the generic `mcp` and `server`. */
  server: ReadonlySet<string>;
  parameters: ReadonlySet<string>;
  /** name ∪ parameters: the side of the learned associations (they carry across catalogs). */
  associated: ReadonlySet<string>;
}

const GENERIC_SERVER_WORDS = new Set(['mcp', 'server']);

export function toolWords(tool: CatalogTool): ToolWords {
  const props = tool.definition.inputSchema.properties;
  const name = new Set(analyze(tool.name));
  const parameters = new Set(analyze(isObject(props) ? Object.keys(props).join(' ') : ''));
  return {
    name,
    server: new Set(analyze(tool.server).filter((w) => !GENERIC_SERVER_WORDS.has(w))),
    parameters,
    associated: new Set([...name, ...parameters]),
  };
}

export interface QueryWords {
  words: ReadonlySet<string>;
  cues: ReadonlySet<string>;
}

export function queryWords(query: string): QueryWords {
  return { words: new Set(analyze(query)), cues: new Set(analyze(entityCueWords(query).join(' '))) };
}

/**
 * Query-word → tool-word associations learned from labelled turns: lift(q, w) =
 * P(needed | q in query, w in tool) / P(needed), with add-one smoothing, kept as ln(lift) when
 * the pair was seen needed at least MIN_SUPPORT times. A tool's association with a query is
 * the mean over query words of the best positive ln(lift) with any of its words.
 */
export class WordAssociations {
  static readonly MIN_SUPPORT = 2;
  private constructor(private readonly lift: ReadonlyMap<string, ReadonlyMap<string, number>>) {}

  get size(): number {
    let n = 0;
    for (const m of this.lift.values()) n += m.size;
    return n;
  }

  static learn(examples: readonly { query: QueryWords; tools: readonly ToolWords[]; needed: readonly boolean[] }[]): WordAssociations {
    const pos = new Map<string, Map<string, number>>();
    const all = new Map<string, Map<string, number>>();
    let neededPairs = 0;
    let pairs = 0;
    const bump = (m: Map<string, Map<string, number>>, q: string, w: string) => {
      let inner = m.get(q);
      if (!inner) m.set(q, (inner = new Map()));
      inner.set(w, (inner.get(w) ?? 0) + 1);
    };
    for (const ex of examples) {
      ex.tools.forEach((tool, i) => {
        pairs++;
        if (ex.needed[i]) neededPairs++;
        for (const q of ex.query.words)
          for (const w of tool.associated) {
            bump(all, q, w);
            if (ex.needed[i]) bump(pos, q, w);
          }
      });
    }
    const base = neededPairs / Math.max(1, pairs);
    const lift = new Map<string, Map<string, number>>();
    for (const [q, inner] of [...pos].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      for (const [w, p] of [...inner].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        if (p < WordAssociations.MIN_SUPPORT) continue;
        const value = Math.log((p + 1) / (all.get(q)!.get(w)! + 2) / base);
        if (value <= 0) continue;
        let m = lift.get(q);
        if (!m) lift.set(q, (m = new Map()));
        m.set(w, value);
      }
    }
    return new WordAssociations(lift);
  }

  score(query: QueryWords, tool: ToolWords): number {
    if (query.words.size === 0) return 0;
    let sum = 0;
    for (const q of query.words) {
      const m = this.lift.get(q);
      if (!m) continue;
      let best = 0;
      for (const w of tool.associated) best = Math.max(best, m.get(w) ?? 0);
      sum += best;
    }
    return sum / query.words.size;
  }
}

const overlapShare = (a: ReadonlySet<string>, b: ReadonlySet<string>) => {
  if (a.size === 0) return 0;
  let n = 0;
  for (const x of a) if (b.has(x)) n++;
  return n / a.size;
};

/** Reciprocal ranks (1 for the best score), ties in catalog order. */
function reciprocalRanks(scores: Float64Array): Float64Array {
  const order = Array.from(scores, (_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b);
  const out = new Float64Array(scores.length);
  order.forEach((i, r) => (out[i] = 1 / (r + 1)));
  return out;
}

/** Feature rows (FEATURES order) of every tool for one query. */
export function featureRows(
  query: QueryWords,
  tools: readonly ToolWords[],
  bm25: Float64Array,
  dense: Float64Array,
  associations: WordAssociations,
): Float64Array[] {
  const bestBm25 = Math.max(0, ...bm25);
  const bestCos = Math.max(...dense);
  const bm25Rr = reciprocalRanks(bm25);
  const denseRr = reciprocalRanks(dense);
  return tools.map((tool, i) => {
    let serverCue = 0;
    for (const w of tool.server) if (query.words.has(w)) serverCue = 1;
    return Float64Array.of(
      bestBm25 > 0 ? bm25[i]! / bestBm25 : 0,
      bm25[i]! > 0 ? bm25Rr[i]! : 0,
      dense[i]!,
      dense[i]! - bestCos,
      denseRr[i]!,
      overlapShare(tool.name, query.words),
      serverCue,
      overlapShare(query.cues, tool.parameters),
      associations.score(query, tool),
    );
  });
}
