import { describe, expect, it } from 'vitest';
import { fitNotes } from '../../src/measure/fit-note.ts';
import { RECALL_GAP_NOTED, withRecallGapNotes } from '../../src/table/suite-gap.ts';
import { REAL_SUITE, SYNTHETIC_SUITE } from '../../src/table/suites.ts';
import type { Table } from '../../src/table/table.ts';

const table = (id: string, rows: Table['rows']): Table => ({
  id,
  title: id,
  columns: [
    { key: 'method', header: 'method', kind: 'label' },
    { key: 'recall', header: 'recall', kind: 'measured', digits: 3 },
  ],
  rows,
  notes: [],
});

describe('recall gap notes', () => {
  const synthetic = table(SYNTHETIC_SUITE.measuredTable, [
    { pipeline: 'b3', method: 'B3', recall: 0.887 },
    { pipeline: 'b4', method: 'B4', recall: 0.9 },
  ]);
  const real = table(REAL_SUITE.measuredTable, [
    { pipeline: 'b3', method: 'B3', recall: 0.602 },
    { pipeline: 'b4', method: 'B4', recall: 0.9 - RECALL_GAP_NOTED + 0.01 },
  ]);
  const other = table('other', []);

  it('name a method whose synthetic recall exceeds its real recall by more than the limit, with both numbers, under both suites', () => {
    const out = withRecallGapNotes([synthetic, real, other]);
    for (const id of [SYNTHETIC_SUITE.measuredTable, REAL_SUITE.measuredTable]) {
      const note = out.find((t) => t.id === id)!.notes!.at(-1)!;
      expect(note).toContain('B3 0.887 → 0.602');
      expect(note).not.toContain('B4');
    }
    expect(out.find((t) => t.id === 'other')!.notes).toEqual([]);
  });

  it('add nothing without both suites or without a gap', () => {
    expect(withRecallGapNotes([synthetic, other])).toEqual([synthetic, other]);
    expect(withRecallGapNotes([synthetic, table(REAL_SUITE.measuredTable, synthetic.rows)])[0]!.notes).toEqual([]);
  });
});

describe('fit notes', () => {
  it('list each fitted part once, with every method that shares it', () => {
    const retriever = { part: 'retriever learned', on: 'synthetic calibration' };
    const [note] = fitNotes([
      { label: 'B1', settings: { details: {} } },
      { label: 'B3', settings: { fitted: [retriever], details: {} } },
      { label: 'TA', settings: { fitted: [retriever, { part: 'θ', on: 'held-out turns' }], details: {} } },
    ]);
    expect(note).toBe(
      "Fitted on (never this suite's evaluated tasks): B3, TA: retriever learned: synthetic calibration; TA: θ: held-out turns.",
    );
    expect(fitNotes([{ label: 'B1', settings: { details: {} } }])).toEqual([]);
  });
});
