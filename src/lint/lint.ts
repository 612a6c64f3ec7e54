import type { Catalog, McpTool } from '../catalog/types.ts';
import type { HostMeasure } from '../hosts/measure.ts';
import { LINT_RULES } from './registry.ts';
import { SEVERITIES, type LintContext, type LintFinding, type LintRule, type Severity } from './types.ts';

export interface LintReport {
  catalog: string;
  source: string;
  /** The host the recoverable tokens are counted for, and its tokenizer. */
  host: { id: string; label: string; tokenizer: string };
  tools: number;
  servers: number;
  /** The catalog's tool list as the host sends it (the recoverable tokens are out of this). */
  tokens: number;
  /** Errors first, then warnings, then info; within each, most tokens recoverable first (ties: rule order, catalog order). */
  findings: LintFinding[];
  /** Per rule (every rule, in registry order): how many findings and the tokens they recover. */
  rules: { id: string; severity: Severity; summary: string; findings: number; recoverable: number }[];
}

export function lintContext(catalog: Catalog, host: HostMeasure): LintContext {
  return { catalog, host };
}

export function runLint(ctx: LintContext, rules: readonly LintRule[] = LINT_RULES): LintReport {
  const found = rules.map((r) => r.check(ctx));
  const order = (f: LintFinding) => SEVERITIES.indexOf(f.severity);
  const findings = found
    .flat()
    .map((f, i) => ({ f, i }))
    .sort((a, b) => order(a.f) - order(b.f) || b.f.recoverable - a.f.recoverable || a.i - b.i)
    .map(({ f }) => f);
  const { catalog, host } = ctx;
  return {
    catalog: catalog.name,
    source: catalog.source,
    host: { id: host.profile.id, label: host.profile.label, tokenizer: host.tokens.tokenizer },
    tools: catalog.tools.length,
    servers: catalog.servers.length,
    tokens: host.listTokens(catalog.tools.map((t) => t.definition)),
    findings,
    rules: rules.map((r, i) => ({
      id: r.id,
      severity: r.severity,
      summary: r.summary,
      findings: found[i]!.length,
      recoverable: found[i]!.reduce((n, f) => n + f.recoverable, 0),
    })),
  };
}

/** Whether a report fails at this threshold: any finding of this severity or a worse one. */
export function lintFails(report: LintReport, failOn: Severity | 'never'): boolean {
  if (failOn === 'never') return false;
  const limit = SEVERITIES.indexOf(failOn);
  return report.findings.some((f) => SEVERITIES.indexOf(f.severity) <= limit);
}

/** One tool with every mechanical fix applied, in rule order, and the ids of the rules that changed it. */
export function fixTool(
  def: McpTool,
  ctx: LintContext,
  rules: readonly LintRule[] = LINT_RULES,
): { definition: McpTool; applied: string[] } {
  let definition = def;
  const applied: string[] = [];
  for (const r of rules) {
    const next = r.fix?.(definition, ctx);
    if (next) {
      definition = next;
      applied.push(r.id);
    }
  }
  return { definition, applied };
}

/** The catalog's servers with every mechanical fix applied, as tools/list dumps. */
export function fixCatalog(ctx: LintContext): { server: string; tools: McpTool[]; fixed: number }[] {
  return ctx.catalog.servers.map((server) => {
    const own = ctx.catalog.tools.filter((t) => t.server === server).map((t) => fixTool(t.definition, ctx));
    return { server, tools: own.map((f) => f.definition), fixed: own.filter((f) => f.applied.length).length };
  });
}
