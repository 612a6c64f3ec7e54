import type { CatalogTool } from '../../catalog/types.ts';
import { isObject } from '../../util/json.ts';
import { ScratchArray } from '../../util/scratch-array.ts';
import { rankOrder } from '../rank-order.ts';
import { analyze } from '../tokenize.ts';
import { entityCueWords } from '../vocabulary.ts';
import { cached, runCache } from '../../util/run-scope.ts';

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
  'entity cue matches a rare parameter',
  'word association',
] as const;

export type Feature = (typeof FEATURES)[number];

const at = (feature: Feature) => FEATURES.indexOf(feature);

/**
 * Each feature's position in a row, by name: rows are written and read through these (a
 * test checks that they cover every feature once), and the labels above name the weights.
 */
export const FEATURE = {
  bm25Share: at('bm25 / best bm25 of the query'),
  bm25ReciprocalRank: at('bm25 reciprocal rank'),
  denseCosine: at('dense cosine'),
  denseCosineGap: at('dense cosine − best cosine of the query'),
  denseReciprocalRank: at('dense reciprocal rank'),
  nameWordShare: at('share of name words in the query'),
  serverNamed: at('server named in the query'),
  entityCue: at('entity cue matches a rare parameter'),
  wordAssociation: at('word association'),
} as const;

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

export function toolWords(tool: CatalogTool, vocabulary = true): ToolWords {
  const props = tool.definition.inputSchema.properties;
  const name = new Set(analyze(tool.name, { vocabulary }));
  const parameters = new Set(analyze(isObject(props) ? Object.keys(props).join(' ') : '', { vocabulary }));
  return {
    name,
    server: new Set(analyze(tool.server, { vocabulary }).filter((w) => !GENERIC_SERVER_WORDS.has(w))),
    parameters,
    associated: new Set([...name, ...parameters]),
  };
}

export interface QueryWords {
  words: ReadonlySet<string>;
  cues: ReadonlySet<string>;
}

export function queryWords(query: string, vocabulary = true): QueryWords {
  return { words: new Set(analyze(query, { vocabulary })), cues: new Set(analyze(entityCueWords(query).join(' '), { vocabulary })) };
}

/** One labelled example for the associations: a query and a pool of tools, each needed or not. */
export interface AssociationExample {
  query: QueryWords;
  tools: readonly ToolWords[];
  needed: readonly boolean[];
}

/** Counts of one group of examples: pairs, needed pairs, and per (query word, tool word) key. */
interface GroupCounts {
  pairs: number;
  neededPairs: number;
  all: Map<number, number>;
  needed: Map<number, number>;
}

const emptyCounts = (): GroupCounts => ({ pairs: 0, neededPairs: 0, all: new Map(), needed: new Map() });
const bump = (m: Map<number, number>, k: number) => m.set(k, (m.get(k) ?? 0) + 1);
// A pair key packs two word ids (each < 2^20) into one number.
const KEY = 1 << 20;

/**
 * Learn the associations on every example, and, for each group (e.g. a server), on every
 * example outside it (leave-one-group-out), in two passes: needed pairs first, then the
 * all-pairs counts of only those keys that could pass MIN_SUPPORT.
 */
export function learnAssociations(
  examples: readonly AssociationExample[],
  groupOf: readonly string[],
): { all: WordAssociations; leaveOut: Map<string, WordAssociations> } {
  const ids = new Map<string, number>();
  const words: string[] = [];
  const id = (w: string) => {
    let i = ids.get(w);
    if (i === undefined) {
      ids.set(w, (i = words.length));
      words.push(w);
    }
    return i;
  };
  const encoded = examples.map((ex) => ({
    query: [...ex.query.words].map(id),
    tools: ex.tools.map((t) => [...t.associated].map(id)),
    needed: ex.needed,
  }));
  if (words.length >= KEY) throw new Error(`word associations: more than ${KEY} distinct words`);
  const groups = [...new Set(groupOf)].sort();
  const total = emptyCounts();
  const byGroup = new Map(groups.map((g) => [g, emptyCounts()]));
  encoded.forEach((ex, e) => {
    const group = byGroup.get(groupOf[e]!)!;
    ex.tools.forEach((tool, i) => {
      for (const c of [total, group]) {
        c.pairs++;
        if (ex.needed[i]) c.neededPairs++;
      }
      if (!ex.needed[i]) return;
      for (const q of ex.query) for (const w of tool) for (const c of [total.needed, group.needed]) bump(c, q * KEY + w);
    });
  });
  const candidates = new Set([...total.needed].filter(([, n]) => n >= WordAssociations.MIN_SUPPORT).map(([k]) => k));
  encoded.forEach((ex, e) => {
    const group = byGroup.get(groupOf[e]!)!;
    for (const tool of ex.tools)
      for (const q of ex.query)
        for (const w of tool) {
          const k = q * KEY + w;
          if (!candidates.has(k)) continue;
          bump(total.all, k);
          bump(group.all, k);
        }
  });
  const lifts = (minus?: GroupCounts) => {
    const base = (total.neededPairs - (minus?.neededPairs ?? 0)) / Math.max(1, total.pairs - (minus?.pairs ?? 0));
    const lift = new Map<string, Map<string, number>>();
    // Sorted keys: the maps' order never depends on example order.
    for (const k of [...candidates].sort((a, b) => a - b)) {
      const p = total.needed.get(k)! - (minus?.needed.get(k) ?? 0);
      if (p < WordAssociations.MIN_SUPPORT) continue;
      const value = Math.log((p + 1) / (total.all.get(k)! - (minus?.all.get(k) ?? 0) + 2) / base);
      if (value <= 0) continue;
      const q = words[Math.floor(k / KEY)]!;
      let m = lift.get(q);
      if (!m) lift.set(q, (m = new Map()));
      m.set(words[k % KEY]!, value);
    }
    return new WordAssociations(lift);
  };
  return { all: lifts(), leaveOut: new Map(groups.map((g) => [g, lifts(byGroup.get(g))])) };
}

/**
 * Query-word → tool-word associations learned from labelled turns: lift(q, w) =
 * P(needed | q in query, w in tool) / P(needed), with add-one smoothing, kept as ln(lift) when
 * the pair was seen needed at least MIN_SUPPORT times. A tool's association with a query is
 * the mean over query words of the best positive ln(lift) with any of its words.
 */
export class WordAssociations {
  static readonly MIN_SUPPORT = 2;
  constructor(private readonly lift: ReadonlyMap<string, ReadonlyMap<string, number>>) {}

  /** Every (query word, tool word, ln lift), in the map's fixed order: what the model cache stores. */
  entries(): [string, string, number][] {
    return [...this.lift].flatMap(([q, m]) => [...m].map(([w, v]): [string, string, number] => [q, w, v]));
  }

  static fromEntries(entries: readonly (readonly [string, string, number])[]): WordAssociations {
    const lift = new Map<string, Map<string, number>>();
    for (const [q, w, v] of entries) {
      let m = lift.get(q);
      if (!m) lift.set(q, (m = new Map()));
      m.set(w, v);
    }
    return new WordAssociations(lift);
  }

  get size(): number {
    let n = 0;
    for (const m of this.lift.values()) n += m.size;
    return n;
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

  /**
   * score() of every tool at once, equal to it bit for bit: for each query word, only the tools
   * holding one of its associated words are visited (through the tools' word → tool index), and
   * the per-word bests are added in the same query-word order (adding the zeros score() adds
   * changes nothing). Cost follows the associations that fire, not tools × words.
   */
  scoreAll(query: QueryWords, tools: readonly ToolWords[], into?: Float64Array): Float64Array {
    const sums = into ? into.fill(0, 0, tools.length).subarray(0, tools.length) : new Float64Array(tools.length);
    if (query.words.size === 0) return sums;
    const byWord = toolsByWord(tools);
    // All zeros between calls: every entry set below is reset once its word is summed.
    const best = scratch.best.atLeast(tools.length);
    const touched: number[] = [];
    for (const q of query.words) {
      const m = this.lift.get(q);
      if (!m) continue;
      for (const [w, v] of m) {
        const holders = byWord.get(w);
        if (!holders) continue;
        for (const i of holders) {
          if (best[i] === 0) touched.push(i);
          if (v > best[i]!) best[i] = v;
        }
      }
      for (const i of touched) {
        sums[i] += best[i]!;
        best[i] = 0;
      }
      touched.length = 0;
    }
    for (let i = 0; i < sums.length; i++) sums[i] = sums[i]! / query.words.size;
    return sums;
  }
}

// Word → indexes of the tools whose associated words hold it, once per tool list.
const WORD_INDEXES = runCache('tools by associated word, by tool list', () => new WeakMap<readonly ToolWords[], Map<string, number[]>>());
function toolsByWord(tools: readonly ToolWords[]): Map<string, number[]> {
  const wordIndexes = cached(WORD_INDEXES);
  let index = wordIndexes.get(tools);
  if (!index) {
    index = new Map();
    tools.forEach((tool, i) => {
      for (const w of tool.associated) {
        const list = index!.get(w);
        if (list) list.push(i);
        else index!.set(w, [i]);
      }
    });
    wordIndexes.set(tools, index);
  }
  return index;
}

/**
 * How much a parameter word singles a tool out in its catalog: ln(N / df) / ln(N), 1 for a
 * parameter only one tool takes, 0 for one every tool takes (memoised per tool list). A cue
 * ("the request holds a path") that half the catalog's tools satisfy says little about which
 * tool is meant; one that only the filesystem tools satisfy says a lot. This holds on any
 * catalog, whatever its domain.
 */
const RARITIES = runCache('parameter word rarity by tool list', () => new WeakMap<readonly ToolWords[], Map<string, number>>());
function parameterRarity(tools: readonly ToolWords[]): Map<string, number> {
  const rarityMemo = cached(RARITIES);
  let rarity = rarityMemo.get(tools);
  if (!rarity) {
    const df = new Map<string, number>();
    for (const t of tools) for (const w of t.parameters) df.set(w, (df.get(w) ?? 0) + 1);
    const logN = Math.log(Math.max(2, tools.length));
    rarity = new Map([...df].map(([w, n]) => [w, Math.log(tools.length / n) / logN]));
    rarityMemo.set(tools, rarity);
  }
  return rarity;
}

/** Mean over the query's cue words of the rarity of the tool's parameter that matches it (0 when none does). */
function cueMatch(cues: ReadonlySet<string>, parameters: ReadonlySet<string>, rarity: ReadonlyMap<string, number>): number {
  if (cues.size === 0) return 0;
  let sum = 0;
  for (const c of cues) if (parameters.has(c)) sum += rarity.get(c) ?? 0;
  return sum / cues.size;
}

const overlapShare = (a: ReadonlySet<string>, b: ReadonlySet<string>) => {
  if (a.size === 0) return 0;
  let n = 0;
  for (const x of a) if (b.has(x)) n++;
  return n / a.size;
};

/** Reciprocal ranks (1 for the best score), ties in catalog order, written into `out`. */
function reciprocalRanks(scores: Float64Array, out: Float64Array): Float64Array {
  const order = rankOrder(scores);
  order.forEach((i, r) => (out[i] = 1 / (r + 1)));
  return out;
}

// Per-query arrays kept by the thread and reused (forEachFeatureRow does not re-enter): scoring
// the reranker's messages allocated five arrays of catalog length per query, which left the
// allocator's arena larger in a cold run.
const scratch = {
  best: new ScratchArray(Float64Array),
  bm25Rr: new ScratchArray(Float64Array),
  denseRr: new ScratchArray(Float64Array),
  association: new ScratchArray(Float64Array),
};

/**
 * Visits each tool's feature row (FEATURES order) for one query, in tool order. The row is one
 * buffer reused from tool to tool: copy it to keep it.
 */
export function forEachFeatureRow(
  query: QueryWords,
  tools: readonly ToolWords[],
  bm25: Float64Array,
  dense: Float64Array,
  associations: WordAssociations,
  visit: (tool: number, row: Float64Array) => void,
  /** Feature indexes held at 0 (an ablation: the model cannot use them). */
  disabled: readonly number[] = [],
): void {
  let bestBm25 = 0;
  for (const x of bm25) bestBm25 = Math.max(bestBm25, x);
  let bestCos = -Infinity;
  for (const x of dense) bestCos = Math.max(bestCos, x);
  const bm25Rr = reciprocalRanks(bm25, scratch.bm25Rr.atLeast(tools.length));
  const denseRr = reciprocalRanks(dense, scratch.denseRr.atLeast(tools.length));
  const association = associations.scoreAll(query, tools, scratch.association.atLeast(tools.length));
  const rarity = parameterRarity(tools);
  const row = new Float64Array(FEATURES.length);
  tools.forEach((tool, i) => {
    let serverCue = 0;
    for (const w of tool.server) if (query.words.has(w)) serverCue = 1;
    row[FEATURE.bm25Share] = bestBm25 > 0 ? bm25[i]! / bestBm25 : 0;
    row[FEATURE.bm25ReciprocalRank] = bm25[i]! > 0 ? bm25Rr[i]! : 0;
    row[FEATURE.denseCosine] = dense[i]!;
    row[FEATURE.denseCosineGap] = dense[i]! - bestCos;
    row[FEATURE.denseReciprocalRank] = denseRr[i]!;
    row[FEATURE.nameWordShare] = overlapShare(tool.name, query.words);
    row[FEATURE.serverNamed] = serverCue;
    row[FEATURE.entityCue] = cueMatch(query.cues, tool.parameters, rarity);
    row[FEATURE.wordAssociation] = association[i]!;
    for (const j of disabled) row[j] = 0;
    visit(i, row);
  });
}
