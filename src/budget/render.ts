import { fmt, type BudgetReport, type ToolBudget } from './budget.ts';
import { PARTS, type PartTokens } from './split.ts';
import { markdownCell, markdownLine, terminalText } from '../report/escape.ts';

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

type Row = (string | number)[];

function headline(r: BudgetReport): string {
  const limits = [
    r.limits.maxToolTokens !== undefined ? `--max-tool-tokens ${fmt(r.limits.maxToolTokens)}` : '',
    r.limits.perTool !== undefined ? `--per-tool ${fmt(r.limits.perTool)}` : '',
  ].filter(Boolean);
  return `${fmt(r.total.tokens)} tokens of tool definitions: ${r.total.tools} tools on ${r.total.servers} server(s) (${r.tokenizer}, compact tools/list JSON per tool); budget ${limits.join(', ')}`;
}

function serverRows(r: BudgetReport): { header: string[]; rows: Row[] } {
  const header = [
    'server',
    'tools',
    'tokens',
    'largest tool',
    ...PARTS.map((p) => PART_HEADERS[p]),
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
      ...PARTS.map((p) => s.parts[p]),
      s.adol.short,
      s.adol.ref,
      s.adol.both,
    ]);
  rows.push([
    'total',
    r.total.tools,
    r.total.tokens,
    '',
    ...PARTS.map((p) => r.total.parts[p]),
    r.total.adol.short,
    r.total.adol.ref,
    r.total.adol.both,
  ]);
  return { header, rows };
}

function toolHeader(): string[] {
  return ['#', 'tool', 'tokens', ...PARTS.map((p) => PART_HEADERS[p]), 'ADOL short saves', '$ref line saves'];
}

function toolRow(t: ToolBudget, i: number, mark: (t: ToolBudget) => string): Row {
  return [i + 1, `${t.id}${mark(t)}`, t.tokens, ...PARTS.map((p) => t.parts[p]), t.adol.short, t.adol.refLine];
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

// ---------- plain text ----------

function cell(v: string | number): string {
  return typeof v === 'number' ? fmt(v) : terminalText(v, 'one-line');
}

function textTable(header: string[], rows: Row[]): string {
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
  const out = [`${r.pass ? 'PASS' : 'FAIL'}: ${headline(r)}`];
  for (const v of r.violations) out.push(`  over budget: ${terminalText(v, 'one-line')}`);
  const s = serverRows(r);
  out.push('', 'Per server:', textTable(s.header, s.rows));
  out.push(
    '',
    'Per tool, largest first (* over --per-tool):',
    textTable(
      toolHeader(),
      r.tools.map((t, i) => toolRow(t, i, (x) => (x.overPerTool ? ' *' : ''))),
    ),
  );
  const refs = refRows(r);
  if (refs) out.push('', 'Definitions using $ref (internal references inlined in memory):', textTable(refs.header, refs.rows));
  out.push('', ...NOTES.map((n) => `- ${n.replaceAll('`', '')}`));
  return `${out.join('\n')}\n`;
}

// ---------- Markdown (a pull-request comment) ----------

function mdCell(v: string | number): string {
  return typeof v === 'number' ? fmt(v) : markdownCell(v);
}

function mdTable(header: string[], rows: Row[], labelCols: readonly number[] = [0]): string {
  const align = header.map((_, i) => (labelCols.includes(i) ? '---' : '---:'));
  return [`| ${header.map(mdCell).join(' | ')} |`, `| ${align.join(' | ')} |`, ...rows.map((r) => `| ${r.map(mdCell).join(' | ')} |`)].join(
    '\n',
  );
}

/** The marker a sticky PR comment can be found by. */
export const MARKDOWN_MARKER = '<!-- tooltax-budget -->';

export function renderMarkdown(r: BudgetReport): string {
  const out = [MARKDOWN_MARKER, `### Tool budget: ${r.pass ? '✅ within budget' : '❌ over budget'}`, '', headline(r)];
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
      toolHeader(),
      shown.map((t, i) => toolRow(t, i, mark)),
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
        toolHeader(),
        rest.map((t, i) => toolRow(t, i + MARKDOWN_TOP, mark)),
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
  out.push('', ...NOTES.map((n) => `<sub>${n}</sub>  `));
  return `${out.join('\n')}\n`;
}

export function renderJson(r: BudgetReport): string {
  return `${JSON.stringify(r, null, 2)}\n`;
}
