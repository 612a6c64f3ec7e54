import type { Cell, Column } from '../table/table.ts';
import type { PipelineSummary } from './summarize.ts';

/**
 * Table 3's tool-result columns: the result tokens each turn's calls leave in the context (as
 * the method's host keeps them), the share of them that are measured results, and the
 * per-turn total of tool definitions and results. The result columns are projected (†)
 * unless every result of every method was measured.
 */
export function resultColumns(summaries: readonly PipelineSummary[]): Column[] {
  const kind = summaries.every((s) => s.measuredResultShare === 1) ? 'measured' : 'projected';
  return [
    { key: 'resultTokens', header: 'tool-result tokens/turn', kind },
    { key: 'resultMeasuredPct', header: 'of which measured %', kind: 'measured', digits: 1 },
    { key: 'toolAndResultTokens', header: 'tool + result tokens/turn', kind },
  ];
}

export function resultCells(s: PipelineSummary): Record<string, Cell> {
  return {
    resultTokens: s.resultTokens,
    resultMeasuredPct: 100 * s.measuredResultShare,
    toolAndResultTokens: s.toolTokens.mean + s.resultTokens,
  };
}

export function resultNote(summaries: readonly PipelineSummary[]): string {
  const kind = summaries.every((s) => s.measuredResultShare === 1) ? '' : ' †';
  return `Tool-result tokens${kind}: the results each turn's calls bring into the context, as the method's host keeps them (direct calls keep every result; code keeps what it printed), counted on the text. Results are measured where the tool was run and modelled († elsewhere) from the catalog's sample, the tool's outputSchema or the nearest sample: docs/measurement.md, "Tool results".`;
}
