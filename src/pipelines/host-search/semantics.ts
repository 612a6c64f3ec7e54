import type { CatalogTool } from '../../catalog/types.ts';
import { createWinkBm25Retriever } from '../../retrieval/bm25-alternatives.ts';
import { MAX_REGEX_CHARS } from '../../sim/search-model.ts';
import type { ToolFields } from '../../retrieval/tool-fields.ts';
import type { Ranking, Retriever } from '../../retrieval/types.ts';
import { isObject } from '../../util/json.ts';

/**
 * The search semantics the hosts publish for their tool search tools (docs/reference/host-search-sources.md):
 *
 * - Anthropic's tool search runs over "tool names, descriptions, argument names, and argument
 *   descriptions" of the deferred tools, and returns 3–5 `tool_reference` blocks, which the API
 *   expands into full definitions that stay loaded for later turns.
 * - The regex variant takes a Python `re.search` pattern of at most 200 characters.
 *
 * How the host ranks is not published. The BM25 variant stands in with an untuned library BM25
 * (wink-bm25-text-search, the retrieval tables' `bm25:wink`) over exactly those four fields of
 * the definition the client sent (no server name, no summary, no tags: the host sees none of
 * them), and returns the best 5, at least the documented 3 even when fewer share a term with
 * the query; the regex variant returns the matching tools in the order the request lists them.
 * What the model writes into either: the searching model (src/sim/search-model.ts).
 */

/** The range of references a search returns, as Anthropic documents it. */
export const REFERENCES_RANGE = { min: 3, max: 5 } as const;
export { MAX_REGEX_CHARS };

/** Refuses a reference count outside the documented 3–5. */
export function checkedReferences(n: number): number {
  if (!Number.isInteger(n) || n < REFERENCES_RANGE.min || n > REFERENCES_RANGE.max)
    throw new Error(
      `host tool search: references must be an integer from ${REFERENCES_RANGE.min} to ${REFERENCES_RANGE.max} (the documented range), got ${n}`,
    );
  return n;
}

/** The fields the host searches, from the definition alone. */
function hostSearchFields(tool: CatalogTool): ToolFields {
  const props = tool.definition.inputSchema.properties;
  const entries = isObject(props) ? Object.entries(props) : [];
  return {
    name: tool.definition.name,
    server: '',
    description: tool.definition.description ?? '',
    parameters: entries.map(([name]) => name).join(' '),
    parameterDescriptions: entries
      .map(([, schema]) => (isObject(schema) && typeof schema.description === 'string' ? schema.description : ''))
      .filter(Boolean)
      .join('\n'),
  };
}

/** The text a regex is searched in: the four fields, one per line (`.` does not cross a field). */
export function hostSearchText(tool: CatalogTool): string {
  const f = hostSearchFields(tool);
  return [f.name, f.description, f.parameters, f.parameterDescriptions].join('\n');
}

/** The host BM25 stand-in: wink's BM25 over the four searched fields, equal weights. */
export function hostBm25Retriever(): Retriever {
  return createWinkBm25Retriever({
    name: 'bm25:host-fields',
    weights: { name: 1, server: 0, description: 1, parameters: 1, parameterDescriptions: 1 },
    fields: hostSearchFields,
    fieldsNote: "the definition's own name, description, argument names and argument descriptions",
  });
}

/**
 * A Python-style pattern as JavaScript runs it: a leading `(?i)` becomes the `i` flag. Refuses
 * a pattern longer than the documented limit, as the host does.
 */
export function compileHostRegex(pattern: string): RegExp {
  if (pattern.length > MAX_REGEX_CHARS)
    throw new Error(`host tool search: regex pattern of ${pattern.length} characters; the limit is ${MAX_REGEX_CHARS}`);
  const insensitive = pattern.startsWith('(?i)');
  return new RegExp(insensitive ? pattern.slice(4) : pattern, insensitive ? 'i' : '');
}

/**
 * The top of a BM25 ranking as the host returns it: the tools with a positive score, at most
 * `references`, and at least REFERENCES_RANGE.min (the documented 3–5) when fewer score.
 */
export function hostReferences(ranking: Ranking, references: number): string[] {
  const top = ranking.top(references);
  const positive = top.filter((h) => h.score > 0);
  return (positive.length >= REFERENCES_RANGE.min ? positive : top.slice(0, REFERENCES_RANGE.min)).map((h) => h.id);
}

/** The tools whose searched fields match the pattern, in request order, at most `limit`. */
export function regexSearch(pattern: string, tools: readonly CatalogTool[], texts: readonly string[], limit: number): string[] {
  const re = compileHostRegex(pattern);
  const out: string[] = [];
  for (let i = 0; i < tools.length && out.length < limit; i++) if (re.test(texts[i]!)) out.push(tools[i]!.id);
  return out;
}
