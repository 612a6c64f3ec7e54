import { fewerSeedsNotes } from './seeds-note.ts';
import { CODE_EXECUTION_PIPELINES, isCodeExecution } from '../pipelines/code-mode/entries.ts';
import { isHostSearch } from '../pipelines/host-search/entries.ts';
import type { PipelineEntry } from '../pipelines/types.ts';
import type { Table } from '../table/table.ts';
import type { PipelineSummary } from './summarize.ts';
import { ownValue } from '../util/json.ts';

/** The methods the code-execution pipelines are compared with, when the run has them. */
const COMPARED = ['b1-full-schema', 'b4-cli-lazy', 'tool-attention', 'adol-combined'];

/** The `kind` column: what a row is, for readers and for the findings (which rank the code-execution rows). */
export const CODE_MODE_KINDS = {
  code: 'code execution',
  examples: 'tool use examples',
  hostSearch: 'host tool search',
  paper: "papers' method",
} as const;

function kindOf(id: string): string {
  if (id === 'tool-examples') return CODE_MODE_KINDS.examples;
  if (isCodeExecution(id)) return CODE_MODE_KINDS.code;
  return isHostSearch(id) ? CODE_MODE_KINDS.hostSearch : CODE_MODE_KINDS.paper;
}

/**
 * The "code mode" table of a suite: the code-execution methods and tool use examples beside
 * B1, B4, Tool Attention, ADOL combined and the hosts' tool search: tool-definition tokens (measured on the prompt), tool-result and code
 * tokens (counted on modelled text, †, unless every result was measured), their sum, round
 * trips per turn (†: the modelled trajectory's), recall, and the saving versus B1.
 */
export function codeModeTable(
  summaries: readonly PipelineSummary[],
  entries: readonly Pick<PipelineEntry, 'id' | 'reference'>[],
  context: string,
  id = 'code-mode',
): Table {
  const codeIds = CODE_EXECUTION_PIPELINES.map((e) => e.id);
  const wanted = (p: string) => COMPARED.includes(p) || codeIds.includes(p) || isHostSearch(p);
  const rows = entries.filter((e) => wanted(e.id)).flatMap((e) => summaries.filter((s) => s.pipeline === e.id));
  const b1 = rows.find((s) => s.pipeline === 'b1-full-schema');
  const total = (s: PipelineSummary) => s.toolTokens.mean + s.resultTokens + s.codeTokens;
  const modelled = rows.some((s) => s.measuredResultShare < 1) ? 'projected' : 'measured';
  return {
    id,
    title:
      'Code mode: definitions, tool results and code per turn, code-execution methods beside B1, B4, Tool Attention, ADOL and host tool search',
    columns: [
      { key: 'method', header: 'method', kind: 'label' },
      { key: 'kind', header: 'kind', kind: 'label' },
      { key: 'definitionTokens', header: 'definition tokens/turn', kind: 'measured' },
      { key: 'resultTokens', header: 'tool-result tokens/turn', kind: modelled },
      { key: 'codeTokens', header: 'code tokens/turn', kind: 'projected' },
      { key: 'totalTokens', header: 'definitions + results + code/turn', kind: 'projected' },
      { key: 'vsB1', header: 'Δ % vs B1 (total)', kind: 'difference', digits: 1 },
      { key: 'roundTrips', header: 'round trips/turn', kind: 'projected', digits: 2 },
      { key: 'recall', header: 'recall', kind: 'measured', digits: 3 },
    ],
    rows: rows.map((s) => ({
      pipeline: s.pipeline,
      method: s.label,
      kind: kindOf(s.pipeline),
      definitionTokens: s.toolTokens.mean,
      resultTokens: s.resultTokens,
      codeTokens: s.codeTokens,
      totalTokens: total(s),
      vsB1: b1 && s !== b1 ? (100 * (total(s) - total(b1))) / total(b1) : undefined,
      roundTrips: s.roundTrips,
      recall: s.recall,
    })),
    notes: [
      context,
      'Definition tokens: every tool section of the prompt (the Code Mode API, wrapper files read, search results, listings), measured as Table 3. Tool-result tokens: what each turn’s calls leave in the context (direct calls: every result; code: only what it printed); code tokens: the code the model writes, modelled from the turn’s calls (docs/measurement.md, "Tool results"). Round trips: model requests per turn of the modelled trajectory.',
      ...basisNote(rows, b1),
      ...fewerSeedsNotes(rows),
      'Projected success of the same methods: the projected Table 4 of this suite. Published figures (Cloudflare, Anthropic) were measured on other catalogs and tasks and are in docs/reference/code-execution-sources.md, not in this table.',
    ],
  };
}

/**
 * What B1 is in each comparison: "Δ % vs B1" compares definitions + results + code with B1's as
 * this run measures the tool list; the note adds the definitions alone against B1 under each
 * compared host profile (each host's own rendering of the tool list, docs/hosts.md), where a
 * code API and a tool list differ most.
 */
function basisNote(rows: readonly PipelineSummary[], b1: PipelineSummary | undefined): string[] {
  if (!b1) return [];
  const code = rows.filter((s) => isCodeExecution(s.pipeline));
  if (!code.length) return [];
  const pct = (x: number, base: number) => (base > 0 ? `${x >= base ? '+' : '−'}${Math.abs((100 * (x - base)) / base).toFixed(1)}%` : '—');
  const hosts = Object.keys(b1.toolTokensByHost);
  const each = code.map(
    (s) =>
      `${s.label} ${pct(s.toolTokens.mean, b1.toolTokens.mean)}${hosts.map((h) => `, ${h} ${pct(ownValue(s.toolTokensByHost, h) ?? Number.NaN, ownValue(b1.toolTokensByHost, h) ?? Number.NaN)}`).join('')}`,
  );
  return [
    `Basis: "Δ % vs B1" is definitions + results + code against B1's, both with the tool list as this run measures it (the context above: compact tools/list JSON, outputSchema included, unless --host says otherwise). Definitions alone against B1, as this run measures them${hosts.length ? ` and under each compared host profile (${hosts.join(', ')})` : ''}: ${each.join('; ')}.`,
  ];
}
