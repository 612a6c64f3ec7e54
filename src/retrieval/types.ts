import type { CatalogTool } from '../catalog/types.ts';
import { rankOrder, type IndexArray } from './rank-order.ts';

/**
 * A tool retriever: fitted once on a catalog's tools, it scores every tool for a
 * query. Deterministic: the same tools and query give the same scores, byte for byte.
 * Registered by name in ./registry.ts; the name is recorded in every result that used it.
 */
export interface Retriever {
  /** `bm25`, `dense:use-lite`, `hybrid-rrf`, `learned`... */
  readonly name: string;
  /** One line for tables: what it is and what it runs on. */
  readonly description: string;
  /** The text of a tool it sees (documented and tested per retriever). */
  readonly toolText: string;
  /**
   * What its scores mean, for θ calibration on any scale: `cosine` in [-1, 1], `probability`
   * in [0, 1], or `unbounded` (BM25, fusion), which the router normalises per query by the top score.
   */
  readonly scale: ScoreScale;
  /**
   * What its trained parts were fitted on (never the tasks it is evaluated on); undefined when
   * it learns nothing from labelled data. Pipelines record it, and every table of a fitted
   * method prints it.
   */
  readonly fittedOn?: string;
  /**
   * The fewest tools it can rank (a library limit: wink-bm25-text-search indexes at least 3
   * documents); undefined for any number. A smaller catalog skips it, with a note in the table
   * (skipReason), instead of failing the run.
   */
  readonly minTools?: number;
  /**
   * For a retriever with trained parts: trains (or loads from its cache) what ranking `tools`
   * needs (default: a catalog never seen), ahead of use; resolves to the trained model.
   */
  trained?(tools?: readonly CatalogTool[]): Promise<unknown>;
  fit(tools: readonly CatalogTool[]): Promise<FittedRetriever>;
}

export type ScoreScale = 'cosine' | 'probability' | 'unbounded';

/** Why the retriever cannot rank this many tools (its minTools), or undefined when it can. */
export function skipReason(retriever: Retriever, toolCount: number): string | undefined {
  const min = retriever.minTools ?? 0;
  return toolCount < min ? `needs at least ${min} tools, the catalog has ${toolCount}` : undefined;
}

/** The minTools of a retriever made of parts: the largest of theirs. */
export function minToolsOf(parts: readonly Retriever[]): number | undefined {
  const mins = parts.flatMap((p) => (p.minTools === undefined ? [] : [p.minTools]));
  return mins.length ? Math.max(...mins) : undefined;
}

export interface FittedRetriever {
  /** Tool ids in catalog order; score vectors are aligned with it. */
  readonly ids: readonly string[];
  /** What this fit's trained parts were fitted on, when it depends on the catalog (the learned reranker leaves the ranked catalog's own source out). */
  readonly fittedOn?: string;
  /** One score per tool (aligned with ids) for each query; higher is better. */
  score(queries: readonly string[]): Promise<Float64Array[]>;
}

/** One scored tool. */
export interface RankedTool {
  id: string;
  score: number;
}

/** Tools by descending score; ties broken by catalog order so rankings are deterministic. */
export function rankScores(ids: readonly string[], scores: Float64Array): RankedTool[] {
  return [...new Ranking(ids, scores)];
}

/**
 * One query's ranking of all tools, best first (ties in catalog order), held as a permutation
 * of the scores: a run keeps every turn's ranking for the pipelines that share it, and as
 * {id, score} objects they took far more memory. Hits are made as they are read.
 */
export class Ranking implements Iterable<RankedTool> {
  private readonly order: IndexArray;

  constructor(
    private readonly toolIds: readonly string[],
    private readonly scores: Float64Array,
  ) {
    this.order = rankOrder(scores);
  }

  /** Every tool id, best first (no hit objects: what a metric over the whole ranking reads). */
  ids(): string[] {
    const out = new Array<string>(this.order.length);
    for (let r = 0; r < out.length; r++) out[r] = this.toolIds[this.order[r]!]!;
    return out;
  }

  /** The best k tools (all when k exceeds the catalog). */
  top(k: number): RankedTool[] {
    const out: RankedTool[] = [];
    for (let r = 0; r < Math.min(k, this.order.length); r++) out.push(this.at(r));
    return out;
  }

  private at(rank: number): RankedTool {
    const i = this.order[rank]!;
    return { id: this.toolIds[i]!, score: this.scores[i]! };
  }

  *[Symbol.iterator](): Iterator<RankedTool> {
    for (let r = 0; r < this.order.length; r++) yield this.at(r);
  }
}
