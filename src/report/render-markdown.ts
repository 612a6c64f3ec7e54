import { join } from 'node:path';
import { writeFileAtomic } from '../util/files.ts';
import type { Table } from '../table/table.ts';
import { tableToCsv, tableToMarkdown } from './table-text.ts';

/** `tables.md` with every table, and one CSV per table under `csv/`. */
export function writeMarkdownAndCsv(reportsDir: string, tables: readonly Table[], header: string): void {
  const md = [header, ...tables.map(tableToMarkdown)].join('\n');
  writeFileAtomic(join(reportsDir, 'tables.md'), md);
  for (const t of tables) writeFileAtomic(join(reportsDir, 'csv', `${t.id}.csv`), tableToCsv(t));
}
