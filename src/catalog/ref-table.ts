import type { Table } from '../table/table.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import { inlineRefs, type RefInlining } from './refs.ts';
import { serializeToolDefinition, type Catalog, type CatalogTool } from './types.ts';

/** One definition that uses `$ref`, as the wire carries it and as a client that inlines would send it. */
export interface RefUse {
  tool: CatalogTool;
  inlining: RefInlining | undefined;
  /** Set when the schema was too deep to inline (the stack ran out); counted as wire only. */
  tooDeep: boolean;
}

/** The catalog's definitions that carry a `$ref` (inputSchema or outputSchema). */
export function refUses(catalog: Catalog): RefUse[] {
  const out: RefUse[] = [];
  for (const tool of catalog.tools) {
    try {
      const inlining = inlineRefs(tool.definition);
      if (inlining) out.push({ tool, inlining, tooDeep: false });
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
      out.push({ tool, inlining: undefined, tooDeep: true });
    }
  }
  return out;
}

/**
 * One warning per tool whose schema refers to a file or URL: such a reference is never read
 * (an untrusted catalog must not make the harness open the machine's files or the network),
 * so it is measured as the wire carries it.
 */
export function externalRefWarnings(uses: readonly RefUse[]): string[] {
  return uses
    .filter((u) => u.inlining?.external.length)
    .map(
      (u) =>
        `warning: tool ${u.tool.id} refers to ${u.inlining!.external.map((e) => JSON.stringify(e)).join(', ')}; external $ref not read, measured as written`,
    );
}

/**
 * Wire size versus inlined size of every definition that uses `$ref` (undefined when none
 * does). The rest of the bench measures the wire form, exactly as tools/list carries it.
 */
export function refSizeTable(catalog: Catalog, tokens: TokenCounter, uses: readonly RefUse[] = refUses(catalog)): Table | undefined {
  if (!uses.length) return undefined;
  const rows = uses.map(({ tool, inlining, tooDeep }) => {
    const wire = tokens.count(serializeToolDefinition(tool.definition));
    const inlined = inlining ? tokens.count(serializeToolDefinition(inlining.inlined)) : undefined;
    const left =
      !tooDeep && inlining
        ? [
            ...inlining.external.map((e) => `external ${e}`),
            ...inlining.cyclic.map((c) => `cyclic ${c}`),
            ...inlining.broken.map((b) => `dangling ${b}`),
            ...(inlining.truncated ? ['too large to inline'] : []),
          ]
        : ['too deep to inline'];
    return {
      tool: tool.id,
      refs: inlining?.refs,
      resolved: inlining?.resolved,
      wire,
      inlined,
      diff: inlined === undefined ? undefined : inlined - wire,
      left: left.join('; ') || '—',
    };
  });
  return {
    id: 'catalog-refs',
    title: `Definitions using $ref: ${catalog.name} (${tokens.tokenizer}, wire versus inlined)`,
    columns: [
      { key: 'tool', header: 'tool', kind: 'label' },
      { key: 'refs', header: '$ref', kind: 'measured' },
      { key: 'resolved', header: 'resolved', kind: 'measured' },
      { key: 'wire', header: 'wire tokens', kind: 'measured' },
      { key: 'inlined', header: 'inlined tokens', kind: 'measured' },
      { key: 'diff', header: 'inlined − wire', kind: 'difference' },
      { key: 'left', header: 'left as written', kind: 'label' },
    ],
    rows,
    notes: [
      'Every other table counts the wire form (the definition exactly as tools/list carries it). "Inlined" is what a client that cannot pass references to its model would send: internal references (#/$defs/..., #/definitions/..., JSON pointers) replaced in memory.',
      'Cyclic and dangling references and references to files or URLs stay as written; files and URLs are never read.',
    ],
  };
}
