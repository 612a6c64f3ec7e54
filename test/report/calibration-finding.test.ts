import { describe, expect, it } from 'vitest';
import { calibrationSentence } from '../../src/report/calibration-finding.ts';
import type { Table } from '../../src/table/table.ts';

const table = (rows: Table['rows']): Table => ({ id: 'search-calibration', title: 't', columns: [], rows });

describe('the calibration finding', () => {
  it('gives each part’s median absolute difference from its rows, and the largest validation miss', () => {
    const s = calibrationSentence([
      table([
        { figure: 'a', part: 'calibration', difference: 2 },
        { figure: 'b', part: 'calibration', difference: -4 },
        { figure: 'c', part: 'validation', difference: -10 },
        { figure: 'd', part: 'validation', difference: 1 },
        { figure: 'e', part: 'validation', difference: 3 },
        { figure: 'not reproduced', part: 'validation', difference: undefined },
      ]),
    ])!;
    expect(s).toContain('3.0 pp over 2 calibration figures');
    expect(s).toContain('3.0 pp over 3 validation figures');
    expect(s).toContain('largest validation miss: c, -10.0 pp');
  });

  it('says nothing without the table', () => {
    expect(calibrationSentence([])).toBeUndefined();
  });
});
