import type { Catalog, McpTool } from './types.ts';
import { serializeToolDefinition } from './types.ts';
import { PUBLISHED_SOURCE, PUBLISHED_TESTBED, PUBLISHED_TOTAL, TESTBED_CATALOG } from '../reference/published.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import { publishedOnlyFor } from '../table/published-for.ts';
import type { Table } from '../table/table.ts';

/** How a host sends one tool (src/hosts' HostMeasure has this shape; declared here so the catalog does not import the hosts). */
export interface FootprintHost {
  profile: { id: string; label: string; keepsPromptText: boolean; requestTokensNote: string };
  toolTokens(definition: McpTool): number;
  requestTokens(): number;
}

export interface FootprintOptions {
  id?: string;
  /** Count each definition as this host sends it (default: compact tools/list JSON, mcp-json). */
  host?: FootprintHost;
}

/** Tokens of each tool definition: as tools/list carries it, or as the host sends it. */
function definitionTokens(catalog: Catalog, tokens: TokenCounter, host: FootprintHost | undefined): Map<string, number> {
  return new Map(
    catalog.tools.map((t) => [
      t.id,
      host && !host.profile.keepsPromptText ? host.toolTokens(t.definition) : tokens.count(serializeToolDefinition(t.definition)),
    ]),
  );
}

/**
 * Per-server footprint of any catalog: tools, mean/min/max/total tokens per definition, and, for
 * the testbed's catalog alone, the published figures and the difference (beside another catalog,
 * even one with a server of the same name, they would compare unlike with unlike). Under a host
 * other than mcp-json the definitions are counted as it sends them; the published figures
 * (compact JSON) are still printed, without a difference, since they measure another form.
 */
export function footprintTable(catalog: Catalog, tokens: TokenCounter, options: FootprintOptions = {}): Table {
  const id = options.id ?? 'catalog-footprint';
  const host = options.host && !options.host.profile.keepsPromptText ? options.host : undefined;
  const perTool = definitionTokens(catalog, tokens, host);
  type Row = {
    server: string;
    tools: number;
    publishedTools?: number;
    mean?: number;
    publishedMean?: number;
    diffPct?: number;
    min?: number;
    max?: number;
    total: number;
  };
  const testbed = catalog.name === TESTBED_CATALOG;
  const rows: Row[] = catalog.servers.map((server) => {
    const counts = catalog.tools.filter((t) => t.server === server).map((t) => perTool.get(t.id)!);
    const total = counts.reduce((a, b) => a + b, 0);
    const mean = total / counts.length;
    const pub = testbed ? PUBLISHED_TESTBED.find((p) => p.server === server) : undefined;
    return {
      server: pub?.displayName ?? server,
      tools: counts.length,
      publishedTools: pub?.tools,
      mean,
      publishedMean: pub?.meanTokens,
      diffPct: pub && !host ? (100 * (mean - pub.meanTokens)) / pub.meanTokens : undefined,
      min: Math.min(...counts),
      max: Math.max(...counts),
      total,
    };
  });
  const total = rows.reduce((s, r) => s + r.total, 0);
  rows.push({
    server: 'total',
    tools: catalog.tools.length,
    publishedTools: testbed ? PUBLISHED_TOTAL.tools : undefined,
    mean: catalog.tools.length ? total / catalog.tools.length : undefined,
    publishedMean: testbed ? PUBLISHED_TOTAL.meanTokens : undefined,
    diffPct: testbed && !host ? (100 * (total - PUBLISHED_TOTAL.totalTokens)) / PUBLISHED_TOTAL.totalTokens : undefined,
    min: perTool.size ? Math.min(...perTool.values()) : undefined,
    max: perTool.size ? Math.max(...perTool.values()) : undefined,
    total,
  });
  return publishedOnlyFor(
    {
      id,
      title: `Tool-definition footprint: ${catalog.name} (${tokens.tokenizer}, ${host ? `each tool as ${host.profile.label} sends it` : 'compact tools/list JSON per tool'})`,
      columns: [
        { key: 'server', header: 'server', kind: 'label' },
        { key: 'tools', header: 'tools', kind: 'measured' },
        { key: 'publishedTools', header: 'tools (published)', kind: 'published', publishedFor: TESTBED_CATALOG },
        { key: 'mean', header: 'mean tokens/tool', kind: 'measured', digits: 1 },
        { key: 'publishedMean', header: 'mean (published)', kind: 'published', publishedFor: TESTBED_CATALOG },
        { key: 'diffPct', header: 'Δ % vs published', kind: 'difference', digits: 1, publishedFor: TESTBED_CATALOG },
        { key: 'min', header: 'min', kind: 'measured' },
        { key: 'max', header: 'max', kind: 'measured' },
        { key: 'total', header: 'total tokens', kind: 'measured' },
      ],
      rows,
      // Beside another catalog publishedOnlyFor drops the published columns, silently: they exist
      // only for the testbed, and a note about it beside a user's own dumps says nothing about them.
      notes: [
        ...(host
          ? [
              `Each tool as ${host.profile.label} sends it; a request with tools adds ${host.requestTokens().toLocaleString('en-US')} tokens once (${host.profile.requestTokensNote}), not in these figures.${testbed ? ' The published figures count compact tools/list JSON, so no difference is computed (docs/hosts.md).' : ''}`,
            ]
          : []),
        ...(testbed
          ? [
              `Published: ${PUBLISHED_SOURCE}, Table 2. The total row compares the summed tokens with the published ≈${PUBLISHED_TOTAL.totalTokens.toLocaleString('en-US')}.`,
              'The published per-server means sum to 48,600 tokens, not 47,300; the generator calibrates every server by one common factor that keeps each within ±3% and the total within ±2% (src/catalog/calibrate.ts).',
            ]
          : []),
      ],
    },
    catalog.name,
    { note: false },
  );
}
