import type { Catalog } from '../catalog/types.ts';
import type { Table } from '../table/table.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import { budgetReport } from './budget.ts';
import { PARTS } from './split.ts';

/**
 * Every tool of a catalog, largest first: its definition's tokens split by field (./split.ts,
 * the parts add up to the total) and what ADOL's short mode and `$ref` dedup save on it. The
 * `budget` command's per-tool view, as a results table: the bench writes it for a catalog
 * without tasks, where it is what the run can say about each tool.
 */
export function toolBreakdownTable(catalog: Catalog, tokens: TokenCounter): Table {
  const report = budgetReport(catalog, tokens, {});
  return {
    id: 'tool-breakdown',
    title: `Tokens of each tool definition by field, largest first (${catalog.name}, ${report.tools.length} tools)`,
    columns: [
      { key: 'tool', header: 'tool', kind: 'label' },
      { key: 'tokens', header: 'tokens', kind: 'measured' },
      ...PARTS.map((p) => ({ key: p, header: p, kind: 'measured' as const })),
      { key: 'short', header: 'ADOL short saves', kind: 'measured' },
      { key: 'refLine', header: 'ADOL $ref saves (own line)', kind: 'measured' },
    ],
    rows: report.tools.map((t) => ({ tool: t.id, tokens: t.tokens, ...t.parts, short: t.adol.short, refLine: t.adol.refLine })),
    notes: [
      `Each definition as tools/list carries it (compact JSON), ${tokens.tokenizer}; every token is given to the field it starts in, so the fields add up to the total ("other": ${[...new Set(report.tools.flatMap((t) => t.otherFields))].join(', ') || 'none here'}; "framing": the object's own braces and commas).`,
      "ADOL short: the definition in the short tools/list (optional fields omitted, description cut to its first sentence). ADOL $ref: the saving on the tool's own line before the shared $defs it points into are paid for (`npm run bench -- budget` gives the per-server figure).",
    ],
  };
}
