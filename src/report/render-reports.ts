import { join } from 'node:path';
import { readManifest, readTables } from '../results/read.ts';
import { writeCharts, type ChartResult } from './charts/write-charts.ts';
import type { PngAvailability } from './charts/png.ts';
import { markdownLine } from './escape.ts';
import { computeFindings, findingsMarkdown, partialRunNote } from './findings.ts';
import { calibrationSentence } from './calibration-finding.ts';
import { renderPage } from './html-page.ts';
import { writeMarkdownAndCsv } from './render-markdown.ts';
import { runFacts } from './run-info.ts';
import { VEGA_SCRIPT_FILE, vegaEmbedScript } from './vega-bundle.ts';
import { workbookBuffer } from './xlsx.ts';
import { writeFileAtomic } from '../util/files.ts';

export interface ReportSet {
  reportsDir: string;
  /** Files written, relative to reportsDir. */
  files: string[];
  charts: ChartResult[];
  png: PngAvailability;
  /** What was skipped and why (also printed through `log`). */
  notes: string[];
}

export interface RenderOptions {
  /** Where report notes go (skipped charts, skipped PNGs); default console.log. */
  log?: (line: string) => void;
}

export const REPORT_FILES = {
  markdown: 'tables.md',
  findings: 'findings.md',
  xlsx: 'tooltax.xlsx',
  html: 'index.html',
  csv: (id: string) => `csv/${id}.csv`,
  vegaScript: VEGA_SCRIPT_FILE,
} as const;

/**
 * Renders every report from a results directory alone (no bench run): tables.md, csv/<id>.csv,
 * tooltax.xlsx, charts/<id>.vl.json|.svg|.png, index.html and the script that makes its charts
 * interactive (vendor/vega-embed.js).
 *
 * The results are read and tables.md and the CSVs are written before this returns (a bad
 * results directory throws here, synchronously); the workbook, charts and page follow in the
 * returned promise, which callers should await.
 */
export function renderReports(resultsDir: string, reportsDir: string, opts: RenderOptions = {}): Promise<ReportSet> {
  const tables = readTables(resultsDir);
  const info = readManifest(resultsDir);
  // The findings lead: computed from the suites' Table 3, before any table.
  const findings = computeFindings(tables, info);
  const partial = partialRunNote(info, findings);
  const findingsText = findingsMarkdown(findings, partial, calibrationSentence(tables));
  const header = [
    '# tooltax results',
    '',
    // A partial run says so first (in the findings when there are any).
    ...(partial && !findingsText ? [`**${markdownLine(partial)}**`, ''] : []),
    info
      ? `Catalog: ${markdownLine(info.catalog.name)}; tokenizer: ${info.tokenizer}; tool list as ${info.host?.label ?? 'mcp-json (compact tools/list JSON)'} sends it; seeds: ${info.seeds.join(', ')}.`
      : 'No run manifest (run.json) in the results directory.',
    'Columns marked † are projections from a parameterised model, not measurements; "published" columns are the source documents\' figures, printed beside ours.',
    '',
  ].join('\n');
  writeMarkdownAndCsv(reportsDir, tables, findingsText ? `${header}\n${findingsText}` : header);
  if (findingsText) writeFileAtomic(join(reportsDir, REPORT_FILES.findings), findingsText);
  return (async () => {
    const log = opts.log ?? ((line: string) => console.log(line));
    const facts = runFacts(info);
    const { charts, png, notes } = await writeCharts(reportsDir, tables, info);
    writeFileAtomic(join(reportsDir, REPORT_FILES.xlsx), await workbookBuffer(tables, facts, info ? new Date(info.finishedAt) : undefined));
    const interactive = charts.some((c) => c.status === 'rendered') && writeVegaScript(reportsDir, notes);
    const html = renderPage({
      tables,
      findings,
      partial,
      facts,
      charts,
      notes,
      files: REPORT_FILES,
      interactive,
      runFinishedAt: info?.finishedAt,
    });
    writeFileAtomic(join(reportsDir, REPORT_FILES.html), html);
    if (png.available && charts.some((c) => c.png === 'written')) log(`report: chart PNGs drawn with ${png.renderer.version}`);
    for (const n of notes) log(`report: ${n}`);
    const files = [
      REPORT_FILES.markdown,
      ...(findingsText ? [REPORT_FILES.findings] : []),
      ...tables.map((t) => REPORT_FILES.csv(t.id)),
      REPORT_FILES.xlsx,
      ...charts.flatMap((c) => Object.values(c.files)),
      REPORT_FILES.html,
      ...(interactive ? [REPORT_FILES.vegaScript] : []),
    ];
    return { reportsDir, files, charts, png, notes };
  })();
}

/** The vega bundle beside the page; if it cannot be built, the page keeps its static SVG charts and says why. */
function writeVegaScript(reportsDir: string, notes: string[]): boolean {
  try {
    writeFileAtomic(join(reportsDir, REPORT_FILES.vegaScript), vegaEmbedScript());
    return true;
  } catch (err) {
    notes.push(`interactive charts not available (${(err as Error).message.split('\n')[0]}); the page shows the static SVG charts`);
    return false;
  }
}
