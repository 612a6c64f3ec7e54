import type { CatalogTool } from '../../src/catalog/types.ts';
import type { FittedRetriever, Retriever } from '../../src/retrieval/types.ts';

/** The words of a text, lower case, of three letters or more. */
function words(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 2),
  );
}

/**
 * Name words: a tool scores the share of its name's words that the query contains. The worked
 * example of a retriever in docs/extending.md: deterministic, fitted on nothing labelled.
 */
export function createNameWordsRetriever(): Retriever {
  return {
    name: 'name-words',
    description: "the share of a tool name's words found in the query",
    toolText: 'the tool name, split into words',
    scale: 'probability',
    async fit(tools: readonly CatalogTool[]): Promise<FittedRetriever> {
      const names = tools.map((t) => [...words(t.name)]);
      return {
        ids: tools.map((t) => t.id),
        async score(queries) {
          return queries.map((query) => {
            const seen = words(query);
            return Float64Array.from(names.map((name) => (name.length ? name.filter((w) => seen.has(w)).length / name.length : 0)));
          });
        },
      };
    },
  };
}
