import type { RunManifest } from '../results/manifest.ts';
import { SUITES, suiteNameIn, type Suite } from '../table/suites.ts';
import { PROJECTED_MARK, type Table } from '../table/table.ts';
import { markdownCell, markdownLine } from './escape.ts';

/**
 * The findings block that opens tables.md, the HTML page and the README's results section:
 * computed from the result tables of each suite's Table 3 (never written by hand).
 */

/** The recall a method must keep to count as a reduction that does not lose the needed tools. */
export const RECALL_FLOOR = 0.8;

export interface SuiteFindings {
  suite: Suite['id'];
  suiteName: string;
  methods: number;
  /** B1 Full-Schema's tool tokens per turn (the baseline row). */
  baselineTokens: number | null;
  /** The method other than B1 with the fewest tool tokens among those keeping recall ≥ RECALL_FLOOR; null when none does. */
  leanest: { method: string; tokens: number; reductionPct: number | null; recall: number } | null;
  /** The highest-recall method other than B1, shown when none reaches the floor. */
  bestRecall: { method: string; tokens: number; recall: number } | null;
  /** The best projected success (†) and its 95% interval. */
  bestSuccess: { method: string; success: number; ci: string | null } | null;
  /** The host tool search with the best projected success (†), ranked among every method of the suite's host tool search table. */
  hostSearch: { method: string; tokens: number; recall: number; success: number; rank: number; of: number } | null;
  /**
   * From the suite's code mode table (definitions + results + code per turn, †): the code-execution
   * method with the fewest keeping recall ≥ RECALL_FLOOR (`kept`; else the highest recall, `kept`
   * false), and the code-execution method that sends the most more than B1 (null when none does).
   */
  codeMode: {
    best: { method: string; total: number; vsB1: number | null; recall: number; kept: boolean };
    costliest: { method: string; vsB1: number } | null;
  } | null;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Per suite (of the registry, src/table/suites.ts) whose measured Table 3 is in the results, in registry order; labelled ablations (manifest `ablationOf`) are left out. */
export function computeFindings(
  tables: readonly Table[],
  manifest: RunManifest | undefined,
  suites: readonly Suite[] = SUITES,
): SuiteFindings[] {
  const pipelines = manifest?.pipelines ?? [];
  const isAblation = (id: unknown) => pipelines.some((p) => p.id === id && (p.ablationOf || p.group === 'ablation'));
  const isBaseline = (id: unknown) => pipelines.some((p) => p.id === id && p.baseline);
  const out: SuiteFindings[] = [];
  for (const suite of suites) {
    const measured = tables.find((t) => t.id === suite.measuredTable);
    if (!measured) continue;
    const rows = measured.rows.filter((r) => !isAblation(r.pipeline));
    const baseline = rows.find((r) => isBaseline(r.pipeline));
    const baselineTokens = num(baseline?.toolTokens);
    // The mitigations: B1 is what they reduce, not a candidate (it keeps recall 1 by listing everything),
    // and neither is a method that sends as many tool tokens as B1 or more (it reduces nothing).
    const candidates = rows
      .filter((r) => r !== baseline)
      .map((r) => ({ method: String(r.method), tokens: num(r.toolTokens), recall: num(r.recall) }))
      .filter((r): r is { method: string; tokens: number; recall: number } => r.tokens !== null && r.recall !== null)
      .filter((r) => baselineTokens === null || r.tokens < baselineTokens);
    const kept = candidates.filter((r) => r.recall >= RECALL_FLOOR).sort((a, b) => a.tokens - b.tokens)[0];
    const best = [...candidates].sort((a, b) => b.recall - a.recall || a.tokens - b.tokens)[0];
    const projected = tables.find((t) => t.id === suite.projectedTable);
    const success = (projected?.rows ?? [])
      .filter((r) => !isAblation(r.pipeline))
      .map((r) => ({ method: String(r.method), success: num(r.success), ci: typeof r.successCi === 'string' ? r.successCi : null }))
      .filter((r): r is { method: string; success: number; ci: string | null } => r.success !== null)
      .sort((a, b) => b.success - a.success)[0];
    out.push({
      suite: suite.id,
      suiteName: suiteNameIn(suite, manifest?.catalog.name),
      methods: rows.length,
      baselineTokens,
      leanest: kept ? { ...kept, reductionPct: baselineTokens ? (100 * (baselineTokens - kept.tokens)) / baselineTokens : null } : null,
      bestRecall: kept || !best ? null : best,
      bestSuccess: success ?? null,
      hostSearch: hostSearchFinding(tables.find((t) => t.id === suite.hostSearchTable)),
      codeMode: codeModeFinding(tables.find((t) => t.id === suite.codeModeTable)),
    });
  }
  return out;
}

/** The best host tool search of a suite's host tool search table, by projected success, and its rank among all its methods. */
function hostSearchFinding(table: Table | undefined): SuiteFindings['hostSearch'] {
  const rows = (table?.rows ?? [])
    .map((r) => ({
      method: String(r.method),
      host: r.kind === 'host tool search',
      tokens: num(r.toolTokens),
      recall: num(r.recall),
      success: num(r.success),
    }))
    .filter(
      (r): r is typeof r & { tokens: number; recall: number; success: number } =>
        r.tokens !== null && r.recall !== null && r.success !== null,
    )
    .sort((a, b) => b.success - a.success || a.tokens - b.tokens);
  const best = rows.findIndex((r) => r.host);
  if (best < 0) return null;
  const { method, tokens, recall, success } = rows[best]!;
  return { method, tokens, recall, success, rank: best + 1, of: rows.length };
}

/** The code-execution rows of a suite's code mode table (kind "code execution"): the leanest that keeps the recall floor, and the costliest. */
function codeModeFinding(table: Table | undefined): SuiteFindings['codeMode'] {
  const rows = (table?.rows ?? [])
    .filter((r) => r.kind === 'code execution')
    .map((r) => ({ method: String(r.method), total: num(r.totalTokens), vsB1: num(r.vsB1), recall: num(r.recall) }))
    .filter((r): r is typeof r & { total: number; recall: number } => r.total !== null && r.recall !== null);
  // As for the leanest method: one that sends as much as B1 or more saves nothing, whatever its recall.
  const savers = rows.filter((r) => r.vsB1 === null || r.vsB1 < 0);
  if (savers.length === 0) return null;
  const kept = savers.filter((r) => r.recall >= RECALL_FLOOR).sort((a, b) => a.total - b.total)[0];
  const best = kept ?? [...savers].sort((a, b) => b.recall - a.recall || a.total - b.total)[0]!;
  const costliest = rows.filter((r): r is typeof r & { vsB1: number } => r.vsB1 !== null && r.vsB1 > 0).sort((a, b) => b.vsB1 - a.vsB1)[0];
  return {
    best: { ...best, kept: kept !== undefined },
    costliest: costliest ? { method: costliest.method, vsB1: costliest.vsB1 } : null,
  };
}

/** A signed percentage as the tables print a difference: −92.5%, +20.5%. */
const signedPct = (n: number) => `${n < 0 ? '−' : '+'}${Math.abs(n).toFixed(1)}%`;

const int = (n: number) => Math.round(n).toLocaleString('en-US');

/** A suite's findings as the block's cells (plain text), for the Markdown and the HTML renderings alike. */
export function findingCells(f: SuiteFindings): {
  suite: string;
  baseline: string;
  leanest: string;
  success: string;
  hostSearch: string;
  codeMode: string;
} {
  const leanest = f.leanest
    ? `${f.leanest.method}: ${int(f.leanest.tokens)}${f.leanest.reductionPct === null ? '' : ` (−${f.leanest.reductionPct.toFixed(1)}%)`}, recall ${f.leanest.recall.toFixed(3)}`
    : `none besides B1; highest recall: ${f.bestRecall ? `${f.bestRecall.method} ${f.bestRecall.recall.toFixed(3)} at ${int(f.bestRecall.tokens)}` : '—'}`;
  const success = f.bestSuccess
    ? `${f.bestSuccess.method}: ${f.bestSuccess.success.toFixed(1)}%${f.bestSuccess.ci ? ` (${f.bestSuccess.ci})` : ''}`
    : '—';
  const h = f.hostSearch;
  const hostSearch = h
    ? `${h.method}: ${int(h.tokens)}, recall ${h.recall.toFixed(3)}, ${h.success.toFixed(1)}% (rank ${h.rank} of ${h.of})`
    : '—';
  const c = f.codeMode;
  const codeMode = c
    ? [
        `${c.best.kept ? '' : `none keeps recall ≥ ${RECALL_FLOOR}; highest: `}${c.best.method}: ${int(c.best.total)}${c.best.vsB1 === null ? '' : ` (${signedPct(c.best.vsB1)})`}, recall ${c.best.recall.toFixed(3)}`,
        ...(c.costliest ? [`costliest: ${c.costliest.method} ${signedPct(c.costliest.vsB1)}`] : []),
      ].join('; ')
    : '—';
  return { suite: f.suiteName, baseline: f.baselineTokens === null ? '—' : int(f.baselineTokens), leanest, success, hostSearch, codeMode };
}

/**
 * A suite's findings in one plain sentence, from the same numbers as its row: what the leanest
 * method that keeps the recall floor saves, or that every mitigation loses needed tools.
 */
export function findingSentence(f: SuiteFindings): string {
  const b1 = f.baselineTokens === null ? '' : ` against B1's ${int(f.baselineTokens)}`;
  if (f.leanest) {
    const saved =
      f.leanest.reductionPct === null ? '' : `, ${f.leanest.reductionPct.toFixed(1)}% fewer than B1's ${int(f.baselineTokens!)}`;
    return `On ${f.suiteName}, ${f.leanest.method} keeps recall at ${f.leanest.recall.toFixed(3)} with ${int(f.leanest.tokens)} tool tokens per turn${saved}.`;
  }
  if (f.bestRecall)
    return `On ${f.suiteName}, every mitigation drops needed tools on some turns: none keeps recall at ${RECALL_FLOOR} or more, and the highest recall, ${f.bestRecall.recall.toFixed(3)} (${f.bestRecall.method}), comes with ${int(f.bestRecall.tokens)} tool tokens per turn${b1}.`;
  return `On ${f.suiteName}, no mitigation besides B1 ran${f.baselineTokens === null ? '' : ` (B1: ${int(f.baselineTokens)} tool tokens per turn)`}: nothing to compare.`;
}

/**
 * What a partial run (RunManifest.partial) left out, in one sentence for the findings and the
 * page's header; undefined for a whole run. Names the pipelines, suites and sizes that ran.
 */
export function partialRunNote(m: RunManifest | undefined, findings: readonly SuiteFindings[]): string | undefined {
  if (!m?.partial) return undefined;
  const tasks = m.tasks.perSeed.map((s) => `${int(s.tasks)} of seed ${s.seed}`).join(', ');
  const suites = findings.length ? findings.map((f) => f.suiteName).join(', ') : 'none';
  const studies = m.partial.studies ? `studies ${m.partial.studies.join(', ') || 'none'}` : 'every study';
  // The pipelines by name only when --pipelines chose them: otherwise every one ran.
  const chosen = m.partial.options.some((o) => o.startsWith('--pipelines'));
  return [
    `Partial run (${m.partial.options.join(', ')}), not comparable with a whole run:`,
    chosen ? `pipelines ${m.pipelines.map((p) => p.code).join(', ') || 'none'};` : 'every pipeline;',
    `suites ${suites};`,
    `catalog ${m.catalog.name} (${int(m.catalog.tools)} tools); tasks ${tasks || 'none'}${m.quick ? ' (--quick subset)' : ''};`,
    `${studies}.`,
  ].join(' ');
}

export const FINDINGS_HEADERS = [
  'suite',
  'B1 tool tokens/turn',
  `fewest tool tokens keeping recall ≥ ${RECALL_FLOOR} (vs B1), recall`,
  `best projected success ${PROJECTED_MARK} (95% CI)`,
  `best host tool search: tokens, recall, success ${PROJECTED_MARK} (rank)`,
  `code execution: fewest tokens ${PROJECTED_MARK} keeping recall ≥ ${RECALL_FLOOR} (vs B1)`,
];

export const FINDINGS_NOTE = `From this run's tables of each suite. Tool tokens and recall: measured on the exact prompt text (Table 3); success: projected (${PROJECTED_MARK}) by the documented model. Ablations (oracle discovery) are left out; a method sending as many tool tokens as B1 or more is no reduction. Host tool search: the best host search ranked with B1, B3, B4, Tool Attention and ADOL combined by projected success (host tool search table). Code execution: definitions + tool results + code per turn, results and code modelled (${PROJECTED_MARK}), and the code method that sends the most over B1 (code mode table), both against B1 with the tool list as the run measures it (compact tools/list JSON with outputSchema unless --host says otherwise); the code mode table's notes give the definitions against B1 under each host profile.`;

/**
 * The block as Markdown (a heading, what a partial run left out, one sentence and one table row
 * per suite, a key); empty when no suite's Table 3 ran.
 */
export function findingsMarkdown(findings: readonly SuiteFindings[], partial?: string, calibration?: string): string {
  if (findings.length === 0) return '';
  const rows = findings.map((f) => {
    const c = findingCells(f);
    return `| ${[c.suite, c.baseline, c.leanest, c.success, c.hostSearch, c.codeMode].map(markdownCell).join(' | ')} |`;
  });
  return [
    '## Findings',
    '',
    ...(partial ? [`**${markdownLine(partial)}**`, ''] : []),
    ...findings.map((f) => `- ${markdownLine(findingSentence(f))}`),
    ...(calibration ? [`- ${markdownLine(calibration)}`] : []),
    '',
    `| ${FINDINGS_HEADERS.map(markdownCell).join(' | ')} |`,
    '| --- | ---: | --- | --- | --- | --- |',
    ...rows,
    '',
    FINDINGS_NOTE,
    '',
  ].join('\n');
}
