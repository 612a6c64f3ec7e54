import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultReportsDir } from '../../src/results/partial-run.ts';

describe('the reports folder `report` writes without --reports', () => {
  const root = join('/', 'work', 'project');

  it('is reports/ for results/, and a partial run’s own reports folder for its scratch results', () => {
    expect(defaultReportsDir(join(root, 'results'), root)).toBe(join(root, 'reports'));
    expect(defaultReportsDir(join(root, 'results', 'partial', 'results'), root)).toBe(join(root, 'results', 'partial', 'reports'));
    expect(defaultReportsDir(join(root, 'results', 'partial', 'my-catalog', 'results'), root)).toBe(
      join(root, 'results', 'partial', 'my-catalog', 'reports'),
    );
  });

  it('is asked for with any other results folder, so reports/ never shows another run', () => {
    const asked =
      /^--reports: at \(root\): expected the folder to write the reports of .* to \(reports\/ holds those of results\/ only\), found none given$/;
    for (const other of [
      join('/', 'tmp', 'run', 'results'),
      join(root, 'results', 'partial'),
      join(root, 'results', 'partial', 'results', 'nested'),
      join(root, 'results-old'),
    ])
      expect(() => defaultReportsDir(other, root), other).toThrow(asked);
  });
});
