import { parse } from 'csv-parse/sync';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { footprintTable } from '../../src/catalog/footprint-table.ts';
import { loadCatalog } from '../../src/catalog/load.ts';
import { budgetCommand } from '../../src/commands/budget.ts';
import { runBench } from '../../src/bench/run.ts';
import { terminalText } from '../../src/report/escape.ts';
import { tableToCsv, tableToMarkdown } from '../../src/report/table-text.ts';
import type { Table } from '../../src/table/table.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';
import { makeTempDir } from '../helpers/temp.ts';

/**
 * Tool text (names, descriptions, server and catalog names, $ref targets) in every output:
 * Markdown (tables.md, the budget's PR comment) never carries HTML a viewer would run, CSV and
 * Markdown header cells are neutralised like body cells, and what reaches a terminal carries no
 * control sequence (ESC colours and screen clears, BEL, OSC 8 hyperlinks, carriage returns).
 */
const HTML = ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>'];
const OSC8 = '\u001b]8;;https://evil.invalid\u0007click me\u001b]8;;\u0007';
const CONTROL = ['\u001b[2J\u001b[31mred', OSC8, 'bell\u0007', 'over\rwrite', 'c1\u009b31m', 'rtl\u202eevil'];
/** Any control character a terminal acts on. */
const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const dir = makeTempDir('tooltax-hostile-outputs-');
const tool = (name: string, description: string, inputSchema: unknown = { type: 'object', properties: {} }) => ({
  name,
  description,
  inputSchema,
});
const catalogFile = join(dir, 'hostile.json');
writeFileSync(
  catalogFile,
  JSON.stringify({
    servers: [
      {
        server: HTML[1],
        tools: [
          tool(HTML[0], `Does ${HTML[1]} things.`, { type: 'object', properties: { x: { $ref: `https://evil.invalid/${HTML[0]}` } } }),
          tool('plain', 'Reads a file.'),
        ],
      },
      { server: CONTROL[0], tools: CONTROL.map((c, i) => tool(`t${i}${c}`, `Text ${c}.`)) },
    ],
  }),
);

describe('Markdown and CSV', () => {
  it('budget --markdown (a PR comment) carries no HTML from tool text', async () => {
    let out = '';
    await budgetCommand(
      { catalog: [catalogFile], maxToolTokens: 10, tokenizer: 'cl100k_base', markdown: true, timeout: 30 },
      (t) => (out += t),
    );
    expect(out).toContain('&lt;script>alert(1)&lt;/script>');
    expect(out).toContain('&lt;img src=x onerror=alert(1)>');
    const html = out.match(/<[A-Za-z/!][^>]*>/g) ?? [];
    // Only the report's own markup: its marker comment, the collapsed block and the notes.
    expect([...new Set(html)].sort()).toEqual(['<!-- tooltax-budget -->', '</sub>', '<sub>'].sort());
    expect(out).not.toMatch(TERMINAL_CONTROL);
  });

  it('header cells are neutralised as body cells are (CSV formulas, Markdown HTML and pipes)', () => {
    const t: Table = {
      id: 'headers',
      title: 'headers',
      columns: [
        { key: 'a', header: '=HYPERLINK("https://evil.invalid","x")', kind: 'label' },
        { key: 'b', header: `${HTML[0]} | col`, kind: 'measured' },
      ],
      rows: [{ a: '=1+1', b: 2 }],
    };
    const [header, row] = parse(tableToCsv(t)) as string[][];
    expect(header![0]).toBe('\'=HYPERLINK("https://evil.invalid","x")');
    expect(row![0]).toBe("'=1+1");
    const md = tableToMarkdown(t);
    expect(md).not.toMatch(/<script/);
    expect(md.split('\n')[2]).toBe('| =HYPERLINK("https://evil.invalid","x") | &lt;script>alert(1)&lt;/script> \\| col |');
  });

  it('tables.md: the Catalog line and every table escape the catalog and tool names', async () => {
    const named = join(dir, `${HTML[1]}.json`);
    writeFileSync(named, readFileSync(catalogFile));
    const reports = join(dir, 'reports');
    await runBench({
      root: process.cwd(),
      seed: 42,
      seeds: [42],
      catalog: [named],
      tokenizer: 'cl100k_base',
      out: join(dir, 'results'),
      reports,
      pipelines: ['b1-full-schema'],
      studies: [],
      quick: true,
      lanes: 1,
      log: () => {},
    });
    const md = readFileSync(join(reports, 'tables.md'), 'utf8');
    expect(md).toMatch(/^Catalog: &lt;img src=x onerror=alert\(1\)>; tokenizer/m);
    expect(md).not.toMatch(/<img|<script/);
    expect(md).not.toMatch(TERMINAL_CONTROL);
  });
});

describe('terminal', () => {
  it.each(CONTROL)('%j is shown, not acted on', (text) => {
    const shown = terminalText(`name ${text} end\nnext line\ttab`);
    expect(shown).not.toMatch(TERMINAL_CONTROL);
    expect(shown).toMatch(/^name .* end\nnext line\ttab$/);
  });

  it('the catalog footprint printed by `catalog` carries no control sequence', () => {
    const md = tableToMarkdown(footprintTable(loadCatalog(catalogFile), tokenCounter()));
    expect(md).not.toMatch(TERMINAL_CONTROL);
    expect(md).toContain('\\u001B[2J\\u001B[31mred');
  });
});
