import type { CatalogTool } from '../../catalog/types.ts';
import { createWinkBm25Retriever } from '../../retrieval/bm25-alternatives.ts';
import { contentWords } from '../../retrieval/tokenize.ts';
import type { ToolFields } from '../../retrieval/tool-fields.ts';
import type { Retriever } from '../../retrieval/types.ts';
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
 * them); the regex variant returns the matching tools in the order the request lists them.
 */

/** The range of references a search returns, as Anthropic documents it. */
export const REFERENCES_RANGE = { min: 3, max: 5 } as const;
/** The longest regex pattern the regex variant accepts. */
export const MAX_REGEX_CHARS = 200;

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
 * The regex a model writes for a request, the way the documentation's examples write them
 * (`weather`, `(?i)slack`, `database.*query|query.*database`): case-insensitive, the request's
 * `words` longest content words (ties: first in the request), each as its stem when the stem
 * is a prefix of the word (so `emails` finds `email`), as alternatives. Built from the request
 * text only; undefined when it has no content word.
 */
export function regexForRequest(request: string, words = 2): string | undefined {
  const picked = contentWords(request)
    .map((w, i) => ({ ...w, i }))
    .filter((w) => w.word.length > 1)
    .sort((a, b) => b.word.length - a.word.length || a.i - b.i)
    .slice(0, words)
    .sort((a, b) => a.i - b.i)
    .map((w) => (w.word.startsWith(w.stem) && w.stem.length >= 3 ? w.stem : w.word));
  if (!picked.length) return undefined;
  const patternOf = (ws: readonly string[]) => `(?i)${ws.map(escapeRegex).join('|')}`;
  // Kept within the documented limit by dropping the last alternatives.
  while (picked.length > 1 && patternOf(picked).length > MAX_REGEX_CHARS) picked.pop();
  const pattern = patternOf(picked);
  return pattern.length <= MAX_REGEX_CHARS ? pattern : undefined;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
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

/** The tools whose searched fields match the pattern, in request order, at most `limit`. */
export function regexSearch(pattern: string, tools: readonly CatalogTool[], texts: readonly string[], limit: number): string[] {
  const re = compileHostRegex(pattern);
  const out: string[] = [];
  for (let i = 0; i < tools.length && out.length < limit; i++) if (re.test(texts[i]!)) out.push(tools[i]!.id);
  return out;
}
