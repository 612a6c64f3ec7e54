import type { ColumnKind } from '../table/table.ts';

/** What each column kind means, worded once for the XLSX About sheet and the HTML legend. */
export const KIND_LEGEND: { kind: ColumnKind; name: string; meaning: string }[] = [
  {
    kind: 'measured',
    name: 'measured',
    meaning:
      'counted by this harness on this run: tokens from a real tokenizer over the exact prompt text, turns, recall and precision against labelled tasks.',
  },
  {
    kind: 'projected',
    name: 'projected †',
    meaning:
      'the output of a parameterised model (success, latency, cost...), not a measurement; change a parameter and it changes. Every projected column is marked †.',
  },
  {
    kind: 'published',
    name: 'published',
    meaning: "the source document's own figure, printed beside ours for comparison; never used as a measurement.",
  },
  { kind: 'difference', name: 'difference', meaning: 'ours versus published, in percent (+ = ours is larger).' },
  { kind: 'parameter', name: 'parameter', meaning: 'an input setting of the run or of a model (catalog size, θ, context window...).' },
  { kind: 'label', name: 'label', meaning: 'names the row.' },
];

/** Background tints of column headers by kind, shared by the workbook and the page (RGB hex). */
export const KIND_TINT: Record<ColumnKind, string> = {
  label: 'F2F2F2',
  measured: 'DCE6F2',
  projected: 'FCE4CC',
  published: 'E7E7E7',
  difference: 'EFEFEF',
  parameter: 'E6F0DC',
};
