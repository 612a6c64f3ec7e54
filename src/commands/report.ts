import { readRunInfo, readTables } from '../bench/results.ts';
import { writeMarkdownAndCsv } from '../report/render-markdown.ts';

/** Renders every report from a results directory alone (no bench run). */
export function renderReports(resultsDir: string, reportsDir: string): void {
  const tables = readTables(resultsDir);
  const info = readRunInfo(resultsDir);
  const header = [
    '# tooltax results',
    '',
    `Catalog: ${(info.catalog as { name?: string } | undefined)?.name ?? '?'}; tokenizer: ${String(info.tokenizer ?? '?')}; seeds: ${(info.seeds as number[] | undefined)?.join(', ') ?? '—'}.`,
    'Columns marked † are projections from a parameterised model, not measurements; "published" columns are the source documents\' figures, printed beside ours.',
    '',
  ].join('\n');
  writeMarkdownAndCsv(reportsDir, tables, header);
}
