import type { CatalogTool } from '../../catalog/types.ts';
import { contentWords } from '../../retrieval/tokenize.ts';

/** Functions in a namespace at most: OpenAI advises "fewer than 10" per namespace. */
export const NAMESPACE_MAX_FUNCTIONS = 9;

/** A namespace of deferred functions as the OpenAI pipeline sends it. */
export interface OpenAiNamespace {
  /** Letters, digits, `_` and `-` only. */
  name: string;
  /** What its functions do, in words: their names as words. */
  description: string;
  tools: CatalogTool[];
}

/**
 * The catalog as OpenAI advises namespaces: per server, fewer than 10 functions each. A server
 * of up to NAMESPACE_MAX_FUNCTIONS tools is one namespace named after it; a larger one is cut,
 * in the order of its tools' object words (the last word of each name: `list_issues` → issues),
 * into consecutive groups of at most that many, each named after its most frequent object word.
 * The description says in words what the functions do (their names, split into words), the
 * "clear, high-level description" OpenAI recommends, with no word a tool name does not carry.
 */
export function openAiNamespaces(server: string, tools: readonly CatalogTool[]): OpenAiNamespace[] {
  const own = tools.filter((t) => t.server === server);
  const words = (t: CatalogTool) => contentWords(t.definition.name).map((w) => w.word);
  const object = (t: CatalogTool) => words(t).at(-1) ?? t.definition.name;
  const base = safeNamespaceName(server);
  const describe = (group: readonly CatalogTool[]) => `${server}: ${group.map((t) => words(t).join(' ') || t.definition.name).join('; ')}`;
  if (own.length <= NAMESPACE_MAX_FUNCTIONS) return own.length ? [{ name: base, description: describe(own), tools: [...own] }] : [];
  const sorted = own.map((t, i) => ({ t, i, o: object(t) })).sort((a, b) => a.o.localeCompare(b.o) || a.i - b.i);
  const groups = Math.ceil(own.length / NAMESPACE_MAX_FUNCTIONS);
  const size = Math.ceil(own.length / groups);
  const out: OpenAiNamespace[] = [];
  const used = new Set<string>();
  for (let g = 0; g < groups; g++) {
    const group = sorted.slice(g * size, (g + 1) * size);
    const counts = new Map<string, number>();
    for (const { o } of group) counts.set(o, (counts.get(o) ?? 0) + 1);
    const top = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    let name = `${base}_${safeNamespaceName(top)}`;
    for (let k = 2; used.has(name); k++) name = `${base}_${safeNamespaceName(top)}_${k}`;
    used.add(name);
    const members = group.map((x) => x.t);
    out.push({ name, description: describe(members), tools: members });
  }
  return out;
}

function safeNamespaceName(s: string): string {
  return s.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 48) || 'tools';
}
