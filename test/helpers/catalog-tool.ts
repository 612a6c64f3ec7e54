import type { CatalogTool, McpTool } from '../../src/catalog/types.ts';

/** A catalog entry for a definition, as loadCatalog makes one with no meta file (`more` overrides). */
export function catalogTool(server: string, definition: McpTool, more: Partial<CatalogTool> = {}): CatalogTool {
  return {
    id: `${server}/${definition.name}`,
    server,
    name: definition.name,
    definition,
    summary: definition.description ?? '',
    summarySource: 'derived',
    tags: [],
    preconditions: [],
    ...more,
  };
}
