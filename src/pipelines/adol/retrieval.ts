import type { CatalogTool } from '../../catalog/types.ts';
import type { EncoderName } from '../../embed/registry.ts';
import type { Encoder } from '../../embed/types.ts';
import { createVectorIndex } from '../../index/registry.ts';
import type { VectorIndex } from '../../index/types.ts';
import { l2Normalize } from '../../embed/vector.ts';
import { firstSentence } from './short-mode.ts';
import { cached, runCache } from '../../util/run-scope.ts';

/**
 * ADOL mechanism D: retrieval-based tool selection (draft §3.4). The client adds its need to
 * the `tools/list` request and the server returns only matching tools.
 *
 * 1. Semantic: the query (the turn's user message) is embedded and compared with
 *    precomputed tool embeddings; the top-k tools are returned. Following the proposal
 *    ("the server can assign weighted descriptions to different components of the tool,
 *    thereby obtaining a weighted average of the embedding"), a tool's vector is the
 *    re-normalised weighted mean of the embeddings of its components: name (in words),
 *    first sentence of its description, and its parameter names — weights fixed in
 *    SEMANTIC_DEFAULTS, not tuned.
 * 2. Tags: the client maps the query's words onto the catalog's tag vocabulary (a tag matches
 *    when every hyphen-separated part of it, lightly stemmed, is one of the query's stemmed
 *    words) and the server returns every tool carrying at least one requested tag (the draft's
 *    OR semantics, in catalog order). When no tag matches, the client sends no filter and gets
 *    the full list (`fallback: 'all'`), as a real client must; `'none'` returns nothing.
 *
 * The encoder and the query text come from the shared src/retrieval/ helpers (the bench's
 * encoder and its embedding cache; the query is `queryText(user message)`, as B3 and Tool
 * Attention embed it). Only the weighted component vectors are ADOL's own: the shared
 * `buildToolIndex` embeds one text per tool.
 */

export interface SemanticConfig {
  k: number;
  /**
   * Encoder name: the draft's form, a weighted component embedding searched by cosine
   * (resolved by src/retrieval/encoder.ts). Without it the server ranks with a retriever.
   */
  encoder?: EncoderName;
  /** Retriever name (src/retrieval/registry.ts) when no encoder is given; default the bench's retriever. */
  retriever?: string;
  /** Component weights of a tool's embedding. */
  weights: { name: number; description: number; parameters: number };
}

export const SEMANTIC_DEFAULTS: SemanticConfig = {
  k: 10,
  weights: { name: 1, description: 2, parameters: 1 },
};

export interface TagConfig {
  fallback: 'all' | 'none';
}

export const TAG_DEFAULTS: TagConfig = { fallback: 'all' };

function nameWords(name: string): string {
  return name
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .trim();
}

/** The three component texts of a tool, for the weighted embedding. */
function toolComponents(tool: CatalogTool): { name: string; description: string; parameters: string } {
  const props = tool.definition.inputSchema.properties;
  const params = props && typeof props === 'object' ? Object.keys(props).map(nameWords) : [];
  return {
    name: nameWords(tool.name),
    description: firstSentence(tool.definition.description ?? tool.definition.title ?? tool.summary),
    parameters: params.length ? `parameters: ${params.join(', ')}` : 'no parameters',
  };
}

/** Server-side semantic index of tools (weighted component embeddings, exact or faiss inner product). */
export class SemanticToolIndex {
  private constructor(
    readonly encoder: Encoder,
    private readonly index: VectorIndex,
    readonly indexNote: string,
    readonly config: SemanticConfig,
  ) {}

  static async build(
    tools: readonly CatalogTool[],
    encoder: Encoder,
    config: SemanticConfig = SEMANTIC_DEFAULTS,
  ): Promise<SemanticToolIndex> {
    const comps = tools.map(toolComponents);
    const texts = comps.flatMap((c) => [c.name, c.description, c.parameters]);
    const vecs = await encoder.embed(texts);
    const w = config.weights;
    const toolVecs = tools.map((_, i) => {
      const v = new Float32Array(encoder.dim);
      const parts: [Float32Array, number][] = [
        [vecs[3 * i]!, w.name],
        [vecs[3 * i + 1]!, w.description],
        [vecs[3 * i + 2]!, w.parameters],
      ];
      for (const [p, weight] of parts) for (let j = 0; j < v.length; j++) v[j]! += weight * p[j]!;
      return l2Normalize(v);
    });
    const { index, note } = await createVectorIndex(encoder.dim);
    index.add(
      tools.map((t) => t.id),
      toolVecs,
    );
    return new SemanticToolIndex(encoder, index, note, config);
  }

  /** Top-k tool ids for an already embedded query, best first. */
  search(query: Float32Array, k = this.config.k): string[] {
    return this.index.search(query, k).map((h) => h.id);
  }
}

/** Light stemmer for tag matching: plural and a few verb endings. */
export function stem(word: string): string {
  const w = word.toLowerCase();
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && /(ss|sh|ch|x|z)es$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) return w.slice(0, -1);
  return w;
}

export function queryStems(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean)
      .map(stem),
  );
}

/** Tags of the vocabulary that the query names (every part of the tag among the query's words). */
export function matchTags(query: string, vocabulary: Iterable<string>): string[] {
  return matchStemmedTags(query, [...vocabulary].map(tagParts));
}

/** A tag with its stemmed parts (its words, split as a query's are). */
interface StemmedTag {
  tag: string;
  parts: string[];
}

function tagParts(tag: string): StemmedTag {
  return { tag, parts: [...queryStems(tag)] };
}

function matchStemmedTags(query: string, vocabulary: readonly StemmedTag[]): string[] {
  const words = queryStems(query);
  return vocabulary.filter((t) => t.parts.length && t.parts.every((p) => words.has(p))).map((t) => t.tag);
}

/** A catalog's tag vocabulary, sorted and stemmed once: every turn's query is matched against the same one. */
const VOCABULARIES = runCache('stemmed tag vocabularies by tool list', () => new WeakMap<readonly CatalogTool[], StemmedTag[]>());

function stemmedVocabulary(tools: readonly CatalogTool[]): StemmedTag[] {
  const vocabularies = cached(VOCABULARIES);
  let v = vocabularies.get(tools);
  if (!v) vocabularies.set(tools, (v = [...new Set(tools.flatMap((t) => t.tags))].sort().map(tagParts)));
  return v;
}

export interface TagSelection {
  tags: string[];
  toolIds: string[];
  fallback: boolean;
}

/** Tag-based selection over a catalog (see the rule at the top). */
export function selectByTags(query: string, tools: readonly CatalogTool[], config: TagConfig = TAG_DEFAULTS): TagSelection {
  const tags = matchStemmedTags(query, stemmedVocabulary(tools));
  if (!tags.length) return { tags, toolIds: config.fallback === 'all' ? tools.map((t) => t.id) : [], fallback: true };
  const wanted = new Set(tags);
  return { tags, toolIds: tools.filter((t) => t.tags.some((x) => wanted.has(x))).map((t) => t.id), fallback: false };
}
