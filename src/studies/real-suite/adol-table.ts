import type { PipelineSummary } from '../../measure/summarize.ts';
import type { PipelineEntry } from '../../pipelines/types.ts';
import { fitNotes } from '../../measure/fit-note.ts';
import type { Table } from '../../table/table.ts';

/** The ADOL presets on the real suite: tool tokens per turn against B1 on the same tasks, and what the prompt still holds of the needed tools. */
export function adolSuiteTable(
  summaries: readonly PipelineSummary[],
  entries: readonly Pick<PipelineEntry, 'id' | 'group' | 'baseline'>[],
  context: string,
): Table | undefined {
  const b1 = summaries.find((s) => entries.some((e) => e.id === s.pipeline && e.baseline));
  const adol = summaries.filter((s) => entries.some((e) => e.id === s.pipeline && e.group === 'adol'));
  if (!b1 || adol.length === 0) return undefined;
  const rows = [b1, ...adol].map((s) => ({
    pipeline: s.pipeline,
    method: s.label,
    toolTokens: s.toolTokens.mean,
    ci: `${fmt(s.toolTokens.low)}–${fmt(s.toolTokens.high)}`,
    vsB1: s === b1 ? undefined : (100 * (s.toolTokens.mean - b1.toolTokens.mean)) / b1.toolTokens.mean,
    recall: s.recall,
    missing: 100 * s.missingShare,
  }));
  return {
    id: 'adol-real',
    title: 'ADOL mechanisms on the real suite: tool tokens per turn against B1 Full-Schema',
    columns: [
      { key: 'method', header: 'method', kind: 'label' },
      { key: 'toolTokens', header: 'tool tokens/turn', kind: 'measured' },
      { key: 'ci', header: '95% CI', kind: 'measured' },
      { key: 'vsB1', header: 'vs B1 %', kind: 'measured', digits: 1 },
      { key: 'recall', header: 'recall', kind: 'measured', digits: 3 },
      { key: 'missing', header: 'turns missing a needed schema %', kind: 'measured', digits: 1 },
    ],
    rows,
    notes: [
      context,
      "Each mechanism as the ADOL study runs it on the synthetic suite (its tables there); here on the real servers' own schemas, where $ref deduplication finds what these servers really repeat.",
      ...fitNotes([b1, ...adol]),
    ],
  };
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
