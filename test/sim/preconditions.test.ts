import { describe, expect, it } from 'vitest';
import type { Catalog, CatalogTool, Precondition } from '../../src/catalog/types.ts';
import { preconditionViolations } from '../../src/sim/projection/preconditions.ts';
import { task } from './records.ts';

function tool(name: string, preconditions: Precondition[]): CatalogTool {
  return {
    id: `srv/${name}`,
    server: 'srv',
    name,
    definition: { name, inputSchema: { type: 'object' } },
    summary: name,
    summarySource: 'authored',
    tags: [],
    preconditions,
  };
}

const catalog: Catalog = {
  name: 'hand-made',
  source: 'test',
  servers: ['srv'],
  tools: [
    tool('search_items', []),
    tool('write_item', [{ kind: 'requires_auth', scope: 'srv:write' }]),
    tool('merge_item', [{ kind: 'after_tool_output', prefixes: ['search_'] }]),
  ],
};
const all = catalog.tools.map((t) => t.id);
const recs = task('t1', [
  { neededTools: ['srv/search_items'], schemaTools: all },
  { neededTools: ['srv/merge_item'], schemaTools: all },
]);

describe('precondition violations offered per turn', () => {
  it('counts schemas whose auth scope is missing or whose prerequisite output is not yet held', () => {
    const v = preconditionViolations(recs, catalog, () => []);
    expect(recs.map((r) => v.get(r))).toEqual([2, 1]);
  });

  it('a held scope is no violation; an unknown task skips auth checks only', () => {
    const held = preconditionViolations(recs, catalog, () => ['srv:write']);
    expect(recs.map((r) => held.get(r))).toEqual([1, 0]);
    const unknown = preconditionViolations(recs, catalog, () => undefined);
    expect(recs.map((r) => unknown.get(r))).toEqual([1, 0]);
  });

  it('only offered schemas count', () => {
    const gated = task('t2', [{ neededTools: ['srv/search_items'], schemaTools: ['srv/search_items'] }]);
    expect(preconditionViolations(gated, catalog, () => []).get(gated[0]!)).toBe(0);
  });
});
