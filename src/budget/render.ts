import { fmt, type BudgetReport, type ToolBudget } from './budget.ts';
import { PARTS, type PartTokens } from './split.ts';
import { markdownCell, markdownLine, terminalText } from '../report/escape.ts';
import { toolSearchRuleMarkdown, toolSearchRuleText } from './tool-search-rule.ts';

/** Tool rows shown in full; the rest of a Markdown report goes in a collapsed block. */
export const MARKDOWN_TOP = 20;
/** A PR comment holds 65,536 characters; past this many rows the Markdown points at --json. */
const MARKDOWN_MAX_ROWS = 300;

const PART_HEADERS: Record<keyof PartTokens, string> = {
  name: 'name',
  description: 'description',
  inputSchema: 'inputSchema',
  outputSchema: 'outputSchema',
  annotations: 'annotations',
  other: 'other fields',
  framing: 'framing',
};

export type Row = (string | number)[];

/** Whether the report had a limit to check (without one, `budget` only measures). */
const gated = (r: BudgetReport) => r.limits.maxToolTokens !== undefined || r.limits.perTool !== undefined;

const signed = (n: number) => (n > 0 ? `+${fmt(n)}` : n < 0 ? `−${fmt(-n)}` : '0');

function headline(r: BudgetReport): string {
  const limits = [
    r.limits.maxToolTokens !== undefined ? `--max-tool-tokens ${fmt(r.limits.maxToolTokens)}` : '',
    r.limits.perTool !== undefined ? `--per-tool ${fmt(r.limits.perTool)}` : '',
  ].filter(Boolean);
  const budget = limits.length ? `budget ${limits.join(', ')}` : 'no budget given (measured only)';
  const h = r.host;
  const share = r.total.host;
  if (!h || !share)
    return `${fmt(r.total.tokens)} tokens of tool definitions: ${r.total.tools} tools on ${r.total.servers} server(s) (${r.tokenizer}, compact tools/list JSON per tool); ${budget}`;
  const dropped = h.droppedFields.length ? ` (${h.droppedFields.join(', ')})` : '';
  return `${fmt(r.total.tokens)} tokens of tool definitions as ${h.label} sends them: ${r.total.tools} tools on ${r.total.servers} server(s) (${r.tokenizer}: compact tools/list JSON ${fmt(share.mcpJson)}, fields dropped −${fmt(share.dropped)}${dropped}, rendering ${signed(share.rendering)}, per request +${fmt(h.requestTokens)}); ${budget}`;
}

/** A part's column header: under a host, marked when the host never sends it. */
function partHeader(r: BudgetReport, p: keyof PartTokens): string {
  const h = r.host;
  if (!h || h.sends === 'all') return PART_HEADERS[p];
  if (p === 'framing') return `${PART_HEADERS[p]} (replaced)`;
  const sent = h.sends;
  const dropped =
    p === 'other'
      ? r.tools.some((t) => t.otherFields.length) && r.tools.every((t) => t.otherFields.every((f) => !sent.includes(f)))
      : !sent.includes(p);
  return dropped ? `${PART_HEADERS[p]} (dropped)` : PART_HEADERS[p];
}

/** Host mode: the columns that take the compact JSON to what the host sends. */
const HOST_HEADERS = ['mcp-json', 'dropped', 'rendering'];
const hostCells = (share: BudgetReport['total']['host']): Row => (share ? [share.mcpJson, -share.dropped, share.rendering] : []);
/** The ADOL $ref figures, or a dash where $ref does not apply (a provider's tool parameter). */
const refCell = (r: BudgetReport, n: number): string | number => (r.host && !r.host.refApplies ? '—' : n);

function serverRows(r: BudgetReport): { header: string[]; rows: Row[] } {
  const header = [
    'server',
    'tools',
    'tokens',
    'largest tool',
    ...(r.host ? HOST_HEADERS : []),
    ...PARTS.map((p) => partHeader(r, p)),
    'ADOL short saves',
    'ADOL $ref saves',
    'short+$ref saves',
  ];
  const rows: Row[] = r.servers
    .slice()
    .sort((a, b) => b.tokens - a.tokens)
    .map((s) => [
      s.server,
      s.tools,
      s.tokens,
      `${s.largest.name} (${fmt(s.largest.tokens)})`,
      ...hostCells(s.host),
      ...PARTS.map((p) => s.parts[p]),
      s.adol.short,
      refCell(r, s.adol.ref),
      refCell(r, s.adol.both),
    ]);
  if (r.host && r.host.requestTokens)
    rows.push(['per request', '', r.host.requestTokens, '', '', '', r.host.requestTokens, ...PARTS.map(() => ''), '', '', '']);
  rows.push([
    'total',
    r.total.tools,
    r.total.tokens,
    '',
    ...(r.total.host ? [r.total.host.mcpJson, -r.total.host.dropped, r.total.host.rendering + (r.host?.requestTokens ?? 0)] : []),
    ...PARTS.map((p) => r.total.parts[p]),
    r.total.adol.short,
    refCell(r, r.total.adol.ref),
    refCell(r, r.total.adol.both),
  ]);
  return { header, rows };
}

function toolHeader(r: BudgetReport): string[] {
  return [
    '#',
    'tool',
    'tokens',
    ...(r.host ? HOST_HEADERS : []),
    ...PARTS.map((p) => partHeader(r, p)),
    'ADOL short saves',
    '$ref line saves',
  ];
}

function toolRow(r: BudgetReport, t: ToolBudget, i: number, mark: (t: ToolBudget) => string): Row {
  return [
    i + 1,
    `${t.id}${mark(t)}`,
    t.tokens,
    ...hostCells(t.host),
    ...PARTS.map((p) => t.parts[p]),
    t.adol.short,
    refCell(r, t.adol.refLine),
  ];
}

function refRows(r: BudgetReport): { header: string[]; rows: Row[] } | undefined {
  const withRefs = r.tools.filter((t) => t.refs);
  if (!withRefs.length) return undefined;
  return {
    header: ['tool', '$ref', 'wire tokens', 'inlined tokens', 'inlined − wire', 'not inlined'],
    rows: withRefs.map((t) => {
      const x = t.refs!;
      const left = [
        ...x.external.map((e) => `external ${e}`),
        ...x.cyclic.map((c) => `cyclic ${c}`),
        ...x.broken.map((b) => `broken ${b}`),
        ...(x.truncated ? ['too large to inline'] : []),
      ];
      return [t.id, x.refs, x.wire, x.inlined, x.inlined - x.wire, left.join('; ') || '—'];
    }),
  };
}

const NOTES = [
  "Every token of a definition is counted once, in the part where it starts; `framing` is the tokens starting on the object's own braces and on the commas between its fields. The parts add up to the total exactly.",
  "ADOL short: the short tools/list definition (no title/outputSchema/annotations, first sentence of the description). ADOL $ref: internal `$defs` deduplication of each server's list, net of the shared definitions (per tool: gross saving on its own line).",
];

/** The notes of a report: under a host, first how its figures follow from the compact JSON. */
function notes(r: BudgetReport): string[] {
  const h = r.host;
  if (!h) return NOTES;
  return [
    `Under ${h.label} (${h.tokenizerNote}): tokens = mcp-json (the compact tools/list JSON, split by field into the part columns) − the fields it does not send (\`dropped\`; the part columns marked "dropped") + \`rendering\` (what its own format makes of the fields it sends, framing included); the total adds ${fmt(h.requestTokens)} once per request (${h.requestTokensNote}). Sources and known error: docs/hosts.md.`,
    NOTES[0]!,
    `ADOL short: the short definition as ${h.id} sends it. ADOL $ref: — (a provider's tool parameter takes one self-contained schema per tool; a \`$defs\` shared across tools cannot be sent).`,
  ];
}

// ---------- plain text ----------

function cell(v: string | number): string {
  return typeof v === 'number' ? fmt(v) : terminalText(v, 'one-line');
}

export function textTable(header: string[], rows: Row[]): string {
  const cells = [header, ...rows.map((r) => r.map(cell))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === 0 || (i === 1 && header[0] === '#') ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

export function renderText(r: BudgetReport): string {
  const out = [`${!gated(r) ? 'MEASURED' : r.pass ? 'PASS' : 'FAIL'}: ${headline(r)}`];
  for (const v of r.violations) out.push(`  over budget: ${terminalText(v, 'one-line')}`);
  const s = serverRows(r);
  out.push('', 'Per server:', textTable(s.header, s.rows));
  out.push(
    '',
    'Per tool, largest first (* over --per-tool):',
    textTable(
      toolHeader(r),
      r.tools.map((t, i) => toolRow(r, t, i, (x) => (x.overPerTool ? ' *' : ''))),
    ),
  );
  const refs = refRows(r);
  if (refs) out.push('', 'Definitions using $ref (internal references inlined in memory):', textTable(refs.header, refs.rows));
  if (r.toolSearch) out.push(...toolSearchRuleText(r.toolSearch));
  out.push('', ...notes(r).map((n) => `- ${n.replaceAll('`', '')}`));
  return `${out.join('\n')}\n`;
}

// ---------- Markdown (a pull-request comment) ----------

function mdCell(v: string | number): string {
  return typeof v === 'number' ? fmt(v) : markdownCell(v);
}

export function mdTable(header: string[], rows: Row[], labelCols: readonly number[] = [0]): string {
  const align = header.map((_, i) => (labelCols.includes(i) ? '---' : '---:'));
  return [`| ${header.map(mdCell).join(' | ')} |`, `| ${align.join(' | ')} |`, ...rows.map((r) => `| ${r.map(mdCell).join(' | ')} |`)].join(
    '\n',
  );
}

/** The marker a sticky PR comment can be found by. */
export const MARKDOWN_MARKER = '<!-- tooltax-budget -->';

export function renderMarkdown(r: BudgetReport): string {
  const out = [
    MARKDOWN_MARKER,
    `### Tool budget: ${!gated(r) ? 'measured (no budget given)' : r.pass ? '✅ within budget' : '❌ over budget'}`,
    '',
    headline(r),
  ];
  if (r.violations.length) {
    out.push('', ...r.violations.slice(0, 50).map((v) => `- ❌ ${markdownLine(v)}`));
    if (r.violations.length > 50) out.push(`- … and ${r.violations.length - 50} more`);
  }
  const s = serverRows(r);
  out.push('', '**Per server**', '', mdTable(s.header, s.rows, [0, 3]));
  const mark = (t: ToolBudget) => (t.overPerTool ? ' ❌' : '');
  const shown = r.tools.slice(0, MARKDOWN_TOP);
  out.push(
    '',
    `**Largest definitions** (${shown.length} of ${r.tools.length})`,
    '',
    mdTable(
      toolHeader(r),
      shown.map((t, i) => toolRow(r, t, i, mark)),
      [1],
    ),
  );
  const rest = r.tools.slice(MARKDOWN_TOP, MARKDOWN_MAX_ROWS);
  if (rest.length) {
    out.push(
      '',
      `<details><summary>${rest.length} more tools</summary>`,
      '',
      mdTable(
        toolHeader(r),
        rest.map((t, i) => toolRow(r, t, i + MARKDOWN_TOP, mark)),
        [1],
      ),
    );
    if (r.tools.length > MARKDOWN_MAX_ROWS) out.push('', `… and ${r.tools.length - MARKDOWN_MAX_ROWS} more: run with --json for all.`);
    out.push('', '</details>');
  }
  const refs = refRows(r);
  if (refs)
    out.push(
      '',
      '**Definitions using `$ref`** (internal references inlined in memory; files and URLs never fetched)',
      '',
      mdTable(refs.header, refs.rows, [0, 5]),
    );
  if (r.toolSearch) out.push(...toolSearchRuleMarkdown(r.toolSearch));
  out.push('', ...notes(r).map((n) => `<sub>${n}</sub>  `));
  return `${out.join('\n')}\n`;
}
