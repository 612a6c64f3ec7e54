import type { CatalogTool } from '../../catalog/types.ts';
import { contentWords } from '../../retrieval/tokenize.ts';

/** Words in a namespace's stand-in description. */
const NAMESPACE_WORDS = 8;

/**
 * A namespace's description, which OpenAI's tool search shows up front. A catalog carries no
 * description of its servers, so one stands in: the server's tool count and the words most
 * frequent in its tools' descriptions (ties: first seen), the "clear, high-level description"
 * OpenAI recommends, written without knowing any task.
 */
export function namespaceDescription(server: string, tools: readonly CatalogTool[]): string {
  const own = tools.filter((t) => t.server === server);
  const counts = new Map<string, number>();
  for (const t of own) for (const { word } of contentWords(t.definition.description ?? '')) counts.set(word, (counts.get(word) ?? 0) + 1);
  const top = [...counts]
    .filter(([w]) => w.length > 2 && !/^\d+$/.test(w))
    .sort((a, b) => b[1] - a[1])
    .slice(0, NAMESPACE_WORDS)
    .map(([w]) => w);
  return `${own.length} tools of the ${server} server${top.length ? `: ${top.join(', ')}` : ''}`;
}
