import type { Catalog, CatalogTool, McpTool } from '../catalog/types.ts';
import type { HostMeasure } from '../hosts/measure.ts';

export const SEVERITIES = ['error', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** What a rule reads: the catalog and the host whose tokens the findings are counted in. */
export interface LintContext {
  catalog: Catalog;
  host: HostMeasure;
}

/** One finding: the tool, the problem, the fix and the tokens the fix recovers under the host. */
export interface LintFinding {
  rule: string;
  severity: Severity;
  /** `server/name`, or `server/*` for a finding about a whole server's list. */
  tool: string;
  server: string;
  problem: string;
  fix: string;
  /** Tokens the fix takes off the tool list as the host sends it (0 when it adds text or changes nothing there). */
  recoverable: number;
  /** `lint --fix` applies this fix. */
  mechanical: boolean;
}

/**
 * A lint rule: one file's worth of logic under one id. `check` finds every case in a catalog;
 * `fix`, on a rule whose fix is mechanical, returns the definition with that fix applied (a new
 * object) or undefined when there is nothing to change, and must keep every argument the tool
 * accepted accepted, and every one it refused refused (test/lint/fix-property.test.ts).
 */
export interface LintRule {
  id: string;
  severity: Severity;
  /** One line: what it finds (the docs' table and `lint --rules`). */
  summary: string;
  check(ctx: LintContext): LintFinding[];
  fix?(def: McpTool, ctx: LintContext): McpTool | undefined;
}

/** A finding's fields a rule gives for one tool (the rest come from the rule and the tool). */
export type FindingText = Pick<LintFinding, 'problem' | 'fix' | 'recoverable'> & { mechanical?: boolean };

export function findingFor(rule: Pick<LintRule, 'id' | 'severity' | 'fix'>, tool: CatalogTool, text: FindingText): LintFinding {
  const { mechanical = rule.fix !== undefined, ...rest } = text;
  return { rule: rule.id, severity: rule.severity, tool: tool.id, server: tool.server, ...rest, mechanical };
}
