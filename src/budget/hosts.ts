import { fmt, type BudgetReport } from './budget.ts';
import { MARKDOWN_MARKER, mdTable, textTable, type Row } from './render.ts';
import { markdownLine, terminalText } from '../report/escape.ts';
import { toolSearchRuleMarkdown, toolSearchRuleText } from './tool-search-rule.ts';

/**
 * `budget --host all`: one budget report per host (each counted in its own tokenizer, as it
 * sends the definitions), side by side: per server and per tool, one column per host. The gate
 * passes only when every host is within the budget.
 */
export interface HostsReport {
  catalog: string;
  hosts: { id: string; label: string; tokenizer: string; tokens: number; requestTokens: number; pass: boolean }[];
  limits: BudgetReport['limits'];
  pass: boolean;
  /** Each host's violations, prefixed with its id. */
  violations: string[];
  servers: { server: string; tools: number; tokens: number[] }[];
  /** In the first host's order (largest first). */
  tools: { id: string; tokens: number[] }[];
  /** Each host's own report. */
  reports: BudgetReport[];
}

export function hostsReport(ids: readonly string[], reports: readonly BudgetReport[]): HostsReport {
  const first = reports[0]!;
  const byTool = reports.map((r) => new Map(r.tools.map((t) => [t.id, t.tokens])));
  const byServer = reports.map((r) => new Map(r.servers.map((s) => [s.server, s.tokens])));
  return {
    catalog: first.catalog,
    hosts: reports.map((r, i) => ({
      id: ids[i]!,
      label: r.host?.label ?? 'mcp-json (compact tools/list JSON)',
      tokenizer: r.tokenizer,
      tokens: r.total.tokens,
      requestTokens: r.host?.requestTokens ?? 0,
      pass: r.pass,
    })),
    limits: first.limits,
    pass: reports.every((r) => r.pass),
    violations: reports.flatMap((r, i) => r.violations.map((v) => `${ids[i]}: ${v}`)),
    servers: first.servers.map((s) => ({ server: s.server, tools: s.tools, tokens: byServer.map((m) => m.get(s.server) ?? 0) })),
    tools: first.tools.map((t) => ({ id: t.id, tokens: byTool.map((m) => m.get(t.id) ?? 0) })),
    reports: [...reports],
  };
}

function tables(r: HostsReport): { servers: { header: string[]; rows: Row[] }; tools: { header: string[]; rows: Row[] } } {
  const ids = r.hosts.map((h) => h.id);
  const perRequest = r.hosts.map((h) => h.requestTokens);
  const serverRows: Row[] = r.servers.map((s) => [s.server, s.tools, ...s.tokens]);
  if (perRequest.some((n) => n)) serverRows.push(['per request', '', ...perRequest]);
  serverRows.push(['total', r.tools.length, ...r.hosts.map((h) => h.tokens)]);
  return {
    servers: { header: ['server', 'tools', ...ids], rows: serverRows },
    tools: { header: ['#', 'tool', ...ids], rows: r.tools.map((t, i) => [i + 1, t.id, ...t.tokens]) },
  };
}

function headline(r: HostsReport): string {
  const limits = [
    r.limits.maxToolTokens !== undefined ? `--max-tool-tokens ${fmt(r.limits.maxToolTokens)}` : '',
    r.limits.perTool !== undefined ? `--per-tool ${fmt(r.limits.perTool)}` : '',
  ].filter(Boolean);
  const each = r.hosts.map((h) => `${h.id} ${fmt(h.tokens)} (${h.tokenizer})`).join(', ');
  return `tool definitions as each host sends them: ${r.tools.length} tools on ${r.servers.length} server(s): ${each}; ${limits.length ? `budget ${limits.join(', ')} for every host` : 'no budget given (measured only)'}`;
}

const gated = (r: HostsReport) => r.limits.maxToolTokens !== undefined || r.limits.perTool !== undefined;

export function renderHostsText(r: HostsReport): string {
  const t = tables(r);
  const out = [`${!gated(r) ? 'MEASURED' : r.pass ? 'PASS' : 'FAIL'}: ${headline(r)}`];
  for (const v of r.violations) out.push(`  over budget: ${terminalText(v, 'one-line')}`);
  out.push('', 'Per server:', textTable(t.servers.header, t.servers.rows), '', 'Per tool (order of the first host, largest first):');
  out.push(textTable(t.tools.header, t.tools.rows));
  const rule = r.reports[0]?.toolSearch;
  if (rule) out.push(...toolSearchRuleText(rule));
  out.push('', ...r.hosts.map((h) => `- ${h.id}: ${h.label}`));
  return `${out.join('\n')}\n`;
}

export function renderHostsMarkdown(r: HostsReport): string {
  const t = tables(r);
  const status = !gated(r) ? 'measured (no budget given)' : r.pass ? '✅ within budget on every host' : '❌ over budget';
  const out = [MARKDOWN_MARKER, `### Tool budget: ${status}`, '', markdownLine(headline(r))];
  if (r.violations.length) out.push('', ...r.violations.slice(0, 50).map((v) => `- ❌ ${markdownLine(v)}`));
  out.push('', '**Per server**', '', mdTable(t.servers.header, t.servers.rows));
  out.push(
    '',
    `<details><summary>Per tool (${r.tools.length})</summary>`,
    '',
    mdTable(t.tools.header, t.tools.rows.slice(0, 300), [1]),
    '',
    '</details>',
  );
  const rule = r.reports[0]?.toolSearch;
  if (rule) out.push(...toolSearchRuleMarkdown(rule));
  out.push('', ...r.hosts.map((h) => `<sub>${markdownLine(`${h.id}: ${h.label}`)}</sub>  `));
  return `${out.join('\n')}\n`;
}

/**
 * A shields.io endpoint badge (https://shields.io/badges/endpoint-badge): the tokens of the
 * tool list per host; green within budget, red over it, blue when no budget was given.
 */
export function badgeJson(hosts: readonly { id: string; tokens: number }[], pass: boolean, gatedRun: boolean): string {
  const short = (n: number) => (n >= 10_000 ? `${(n / 1000).toFixed(0)}k` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n));
  const message = hosts.map((h) => (hosts.length > 1 ? `${h.id} ${short(h.tokens)}` : `${fmt(h.tokens)} (${h.id})`)).join(' · ');
  return `${JSON.stringify({ schemaVersion: 1, label: 'MCP tool tokens', message, color: !gatedRun ? 'blue' : pass ? 'brightgreen' : 'red' }, null, 2)}\n`;
}
