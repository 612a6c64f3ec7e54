import { fmt } from '../budget/budget.ts';
import { mdTable, textTable, type Row } from '../budget/render.ts';
import { markdownCell, markdownLine, terminalText } from '../report/escape.ts';
import type { LintReport } from './lint.ts';
import type { LintFinding } from './types.ts';

/** Findings shown in full in a Markdown comment; the rest go in a collapsed block (a comment holds 65,536 characters). */
const MARKDOWN_TOP = 30;
const MARKDOWN_MAX = 300;

/** The marker a sticky PR comment can be found by. */
const LINT_MARKDOWN_MARKER = '<!-- tooltax-lint -->';

function counts(r: LintReport): string {
  const by = (s: string) => r.findings.filter((f) => f.severity === s).length;
  return `${r.findings.length} finding(s): ${by('error')} error(s), ${by('warning')} warning(s), ${by('info')} info`;
}

function lintHeadline(r: LintReport): string {
  const all = r.findings.reduce((n, f) => n + f.recoverable, 0);
  const mech = r.findings.filter((f) => f.mechanical).reduce((n, f) => n + f.recoverable, 0);
  return `${counts(r)} on ${r.tools} tools of ${r.servers} server(s), ${fmt(r.tokens)} tokens as ${r.host.label} sends them (${r.host.tokenizer}); the fixes recover up to ${fmt(all)} tokens (those --fix applies: ${fmt(mech)})`;
}

function ruleRows(r: LintReport, withSummary: boolean): { header: string[]; rows: Row[] } {
  return {
    header: ['rule', 'severity', 'findings', 'recoverable tokens', ...(withSummary ? ['finds'] : [])],
    rows: r.rules.map((x) => [x.id, x.severity, x.findings, x.recoverable, ...(withSummary ? [x.summary] : [])]),
  };
}

const recovers = (f: LintFinding) => (f.recoverable ? `recovers ${fmt(f.recoverable)} tokens` : 'recovers no tokens');

export function renderLintText(r: LintReport): string {
  const out = [lintHeadline(r), ''];
  for (const f of r.findings) {
    const t = (s: string) => terminalText(s, 'one-line');
    out.push(`${f.severity.padEnd(7)}  ${f.rule}  ${t(f.tool)}`);
    out.push(`  problem: ${t(f.problem)}`);
    out.push(`  fix:     ${t(f.fix)}${f.mechanical ? ' [--fix]' : ''} (${recovers(f)})`);
  }
  if (r.findings.length) out.push('');
  const rules = ruleRows(r, false);
  out.push('Per rule:', textTable(rules.header, rules.rows));
  return `${out.join('\n')}\n`;
}

function findingRows(fs: readonly LintFinding[]): Row[] {
  return fs.map((f) => [f.severity, f.rule, f.tool, f.problem, `${f.fix}${f.mechanical ? ' (`--fix`)' : ''}`, f.recoverable]);
}
const FINDING_HEADER = ['severity', 'rule', 'tool', 'problem', 'fix', 'recoverable tokens'];

export function renderLintMarkdown(r: LintReport, failed: boolean): string {
  const out = [
    LINT_MARKDOWN_MARKER,
    `### Tool lint: ${failed ? '❌' : '✅'} ${markdownLine(counts(r))}`,
    '',
    markdownLine(lintHeadline(r)),
  ];
  const shown = r.findings.slice(0, MARKDOWN_TOP);
  if (shown.length) out.push('', mdTable(FINDING_HEADER, findingRows(shown), [0, 1, 2, 3, 4]));
  const rest = r.findings.slice(MARKDOWN_TOP, MARKDOWN_MAX);
  if (rest.length) {
    out.push(
      '',
      `<details><summary>${rest.length} more finding(s)</summary>`,
      '',
      mdTable(FINDING_HEADER, findingRows(rest), [0, 1, 2, 3, 4]),
    );
    if (r.findings.length > MARKDOWN_MAX) out.push('', `… and ${r.findings.length - MARKDOWN_MAX} more: run with --json for all.`);
    out.push('', '</details>');
  }
  const rules = ruleRows(r, true);
  out.push('', '**Per rule**', '', mdTable(rules.header, rules.rows, [0, 1, 4]));
  out.push('', `<sub>Recoverable tokens: what the fix takes off the tool list as ${markdownCell(r.host.label)} sends it.</sub>`);
  return `${out.join('\n')}\n`;
}

export function renderLintJson(r: LintReport): string {
  return `${JSON.stringify(r, null, 2)}\n`;
}
