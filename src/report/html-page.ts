import type { ChartResult } from './charts/write-charts.ts';
import { FINDINGS_HEADERS, FINDINGS_NOTE, findingCells, findingSentence, type SuiteFindings } from './findings.ts';
import { calibrationSentence } from './calibration-finding.ts';
import { esc } from './html-escape.ts';
import { tableToHtml } from './html-table.ts';
import { KIND_LEGEND, KIND_TINT } from './kinds.ts';
import type { RunFact } from './run-info.ts';
import { inlineSvg } from './svg-inline.ts';
import { PROJECTED_MARK, type Table } from '../table/table.ts';

/**
 * reports/index.html: one page that opens offline from disk (inline CSS, chart specs and static
 * SVG; the only script file is the vega bundle beside it; nothing fetched from the network). It
 * opens with the findings and the charts, so the first chart is on the first screen (1400×900,
 * checked in Chromium by browser/check-page.ts); the run's details, the legend of measured /
 * projected † / published, the table of contents and the report notes fold away in <details>
 * with a one-line summary each, two to a row. Every table follows the charts. With the bundle, vega-embed redraws each chart interactive (tooltips with the
 * table figures, export); without JavaScript or the bundle, the static SVG stays.
 */
export interface PageInput {
  tables: readonly Table[];
  /** The findings block (src/report/findings.ts), shown first; empty when no suite's Table 3 ran. */
  findings: readonly SuiteFindings[];
  facts: readonly RunFact[];
  charts: readonly ChartResult[];
  /** Report notes shown near the top: skipped charts, skipped PNGs, renderer warnings. */
  notes: readonly string[];
  /** Links relative to the page. */
  files: { xlsx: string; markdown: string; csv: (tableId: string) => string; vegaScript: string };
  /** The vega bundle is beside the page: charts are redrawn interactive. Else only the static SVG. */
  interactive: boolean;
  /** What a partial run left out (findings.ts partialRunNote), shown under the title; absent for a whole run. */
  partial?: string;
  /** When the run behind the results finished (ISO); the page carries no render time, so re-rendering the same results gives the same bytes. */
  runFinishedAt: string | undefined;
}

export function renderPage(p: PageInput): string {
  const rendered = p.charts.filter((c) => c.status === 'rendered');
  const skipped = p.charts.filter((c) => c.status === 'skipped');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tooltax results</title>
<style>${CSS}</style>
</head>
<body>
<header>
<h1>tooltax results</h1>
<p class="lead">Tokens that MCP tool lists and agent protocols burn in an LLM prompt. ${p.tables.length} tables, ${rendered.length} of ${p.charts.length} charts; ${PROJECTED_MARK} marks a projection from a model, not a measurement.</p>
${p.partial ? `<p class="partial"><b>${esc(p.partial)}</b></p>\n` : ''}${findingsSection(p.findings, calibrationSentence(p.tables))}
</header>
<main>
<div class="about">
<details class="run">
<summary><b>Run</b>: ${esc(
    p.facts
      .filter((f) => f.headline)
      .map((f) => f.value)
      .join(' · '),
  )}</summary>
<dl class="facts">
${p.facts.map((f) => `<div><dt>${esc(f.label)}</dt><dd>${esc(f.value)}</dd></div>`).join('\n')}
</dl>
</details>
<details class="legend-details">
<summary><b>How to read the numbers</b>: measured, projected ${PROJECTED_MARK}, published</summary>
<section class="legend" aria-label="legend">
<p>Columns marked <b>${PROJECTED_MARK}</b> are <b>projections</b> from a parameterised model, <b>not measurements</b>. Measured numbers come from this run; published numbers are the source documents' own figures, printed beside ours.</p>
<ul>
${KIND_LEGEND.filter((k) => k.kind !== 'label')
  .map((k) => `<li><span class="swatch" style="background:#${KIND_TINT[k.kind]}"></span><b>${esc(k.name)}</b>: ${esc(k.meaning)}</li>`)
  .join('\n')}
</ul>
</section>
</details>
<details class="toc-details">
<summary><b>Contents</b>: ${p.charts.length} charts, ${p.tables.length} tables, downloads</summary>
<nav class="toc" aria-label="contents">
<div><h2>Charts</h2><ol>${p.charts.map((c) => `<li>${c.status === 'rendered' ? `<a href="#chart-${esc(c.id)}">${esc(c.title)}</a>` : `${esc(c.title)} <span class="muted">(skipped)</span>`}</li>`).join('')}</ol></div>
<div><h2>Tables</h2><ol>${p.tables.map((t) => `<li><a href="#table-${esc(t.id)}">${esc(t.title)}</a></li>`).join('')}</ol></div>
<div><h2>Files</h2><ul><li><a href="${esc(p.files.xlsx)}">Workbook (XLSX), a sheet per table</a></li><li><a href="${esc(p.files.markdown)}">Tables (Markdown)</a></li><li>CSV: a download link beside each table</li><li>Chart specs (Vega-Lite), SVG, PNG: beside each chart</li><li>Charts: hover a mark for its exact figures; the ⋯ menu exports SVG/PNG</li></ul></div>
</nav>
</details>
${
  p.notes.length
    ? `<details class="report-notes"><summary><b>Report notes</b>: ${p.notes.length} (skipped charts, PNGs not drawn, renderer warnings)</summary><section class="report-notes" aria-label="report notes"><ul>${p.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul></section></details>`
    : ''
}
</div>
<h2 class="part">Charts</h2>
<div class="charts">
${rendered.map((c) => chartFigure(c, p.interactive)).join('\n')}
${skipped.map((c) => `<div class="chart-skipped" id="chart-${esc(c.id)}"><b>${esc(c.title)}</b>: not drawn: ${esc(c.reason ?? '')}</div>`).join('\n')}
</div>
<h2 class="part">Tables</h2>
${p.tables.map((t) => tableToHtml(t, p.files.csv(t.id))).join('\n')}
</main>
<footer>Rendered by <code>npm run report</code> from the results directory alone${p.runFinishedAt ? ` (run finished ${esc(p.runFinishedAt.replace('T', ' ').slice(0, 19))} UTC)` : ''}. ${PROJECTED_MARK} = projected, not measured.</footer>
${p.interactive && rendered.length ? `<script src="${esc(p.files.vegaScript)}"></script>\n<script>${EMBED_CHARTS}</script>` : ''}
</body>
</html>
`;
}

/** The findings as the page's first section: one row per suite, computed from its Table 3. */
function findingsSection(findings: readonly SuiteFindings[], calibration: string | undefined): string {
  if (findings.length === 0) return '';
  const rows = findings.map((f) => {
    const c = findingCells(f);
    return `<tr><th scope="row">${esc(c.suite)}</th><td class="num">${esc(c.baseline)}</td><td>${esc(c.leanest)}</td><td>${esc(c.success)}</td><td>${esc(c.hostSearch)}</td><td>${esc(c.codeMode)}</td></tr>`;
  });
  return `<section class="findings" aria-label="findings">
<h2>Findings</h2>
<ul class="sentences">${findings.map((f) => `<li>${esc(findingSentence(f))}</li>`).join('')}${calibration ? `<li>${esc(calibration)}</li>` : ''}</ul>
<table><thead><tr>${FINDINGS_HEADERS.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead>
<tbody>${rows.join('')}</tbody></table>
<details class="findings-note"><summary>How these are computed</summary><p class="muted">${esc(FINDINGS_NOTE)}</p></details>
</section>`;
}

function chartFigure(c: ChartResult, interactive: boolean): string {
  const links = [
    c.files.spec && `<a href="${esc(c.files.spec)}">Vega-Lite spec</a>`,
    c.files.svg && `<a href="${esc(c.files.svg)}">SVG</a>`,
    c.png === 'written' ? `<a href="${esc(c.files.png!)}">PNG</a>` : '',
    c.png === 'kept' ? `<a href="${esc(c.files.png!)}">PNG</a> (from an earlier run, not updated: see report notes)` : '',
    c.png === 'absent' ? 'no PNG (see report notes)' : '',
  ].filter(Boolean);
  const live = interactive ? `\n<div class="chart-live"></div>` : '';
  const spec = interactive ? `\n<script type="application/json" id="spec-${esc(c.id)}">${jsonInScript(c.spec)}</script>` : '';
  return `<figure class="chart" id="chart-${esc(c.id)}"${interactive ? ` data-spec="spec-${esc(c.id)}"` : ''}>${live}
<div class="chart-static">${inlineSvg(c.svg!, `c-${c.id}`, c.title)}</div>${spec}
<figcaption>From table ${c.tables.map((t) => `<a href="#table-${esc(t)}">${esc(t)}</a>`).join(', ')} · ${links.join(' · ')}</figcaption>
</figure>`;
}

/** JSON that cannot end its <script> element early (no "</script>", no "<!--"). */
function jsonInScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * Redraws every chart with vega-embed (SVG renderer, tooltips; the export menu works offline,
 * the online editor is off). The static SVG is hidden only once its live chart has drawn, so a
 * failure leaves it in place. <html data-charts> says when all are done, for the page check.
 */
const EMBED_CHARTS = `(() => {
  const root = document.documentElement;
  if (typeof window.vegaEmbed !== 'function') { root.dataset.charts = 'static'; return; }
  const figures = [...document.querySelectorAll('figure.chart[data-spec]')];
  Promise.allSettled(figures.map((fig) => {
    const spec = JSON.parse(document.getElementById(fig.dataset.spec).textContent);
    return window.vegaEmbed(fig.querySelector('.chart-live'), spec, {
      renderer: 'svg',
      actions: { export: true, source: false, compiled: false, editor: false },
    }).then(() => fig.classList.add('live'), (err) => { console.error('chart ' + fig.id + ': ' + err); throw err; });
  })).then((r) => { root.dataset.charts = r.every((x) => x.status === 'fulfilled') ? 'live' : 'failed'; });
})();`;

const CSS = `
:root { --ink: #1d232b; --muted: #5b6570; --line: #d9dee4; --accent: #3b6ea8; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 "DejaVu Sans", system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: var(--ink); background: #f6f7f9; }
header, main, footer { max-width: 1240px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 10px; }
h1 { margin: 0 0 4px; font-size: 26px; }
h2 { font-size: 16px; margin: 0 0 8px; }
h2.part { font-size: 20px; margin: 10px 0 8px; border-bottom: 2px solid var(--ink); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 0 0 8px; }
a { color: var(--accent); }
.lead { margin: 0 0 10px; color: var(--muted); }
section.findings h2 { margin-bottom: 4px; }
section.findings p { margin: 6px 0 0; }
section.findings details.findings-note summary { cursor: pointer; color: var(--muted); font-size: 12px; margin-top: 4px; }
section.findings ul.sentences { margin: 2px 0 6px; padding-left: 20px; }
header p.partial { margin: 0 0 8px; padding: 2px 8px; font-size: 13px; background: #fff4d6; border-left: 4px solid #d9a400; }
.muted, .id { color: var(--muted); font-weight: normal; font-size: 12px; }
.facts div { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; }
.facts dt { font-size: 12px; color: var(--muted); }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.about { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 6px; align-items: start; margin: 10px 0 0; }
.about details[open] { grid-column: 1 / -1; }
@media (max-width: 800px) { .about { grid-template-columns: 1fr; } }
.about details { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 5px 12px; }
.about summary { cursor: pointer; color: var(--muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.about summary b { color: var(--ink); }
.about details[open] summary { white-space: normal; margin-bottom: 8px; }
.about details.report-notes { background: #fff8e6; border-color: #f0d48a; }
.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 8px; margin: 0 0 6px; }
section.legend p { margin: 0; }
section.legend ul { margin: 6px 0 6px; padding: 0; list-style: none; display: grid; gap: 4px; }
.swatch { display: inline-block; width: 14px; height: 14px; border: 1px solid #aab; vertical-align: -2px; margin-right: 6px; }
section.report-notes ul { margin: 0 0 6px; padding-left: 20px; }
nav.toc { display: grid; grid-template-columns: 1fr 1.6fr 1fr; gap: 16px; margin-bottom: 6px; }
@media (max-width: 800px) { nav.toc { grid-template-columns: 1fr; } }
nav.toc ol, nav.toc ul { margin: 0; padding-left: 20px; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(540px, 1fr)); gap: 16px; align-items: start; }
figure.chart { margin: 0; background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 10px; }
figure.chart svg { display: block; width: 100%; height: auto; margin: 0 auto; }
figure.chart.live .chart-static { display: none; }
.chart-live .vega-embed, .chart-live .vega-embed.has-actions { display: block; width: 100%; padding-right: 0; }
.chart-live .vega-embed svg { width: 100%; height: auto; }
figcaption { font-size: 12px; color: var(--muted); margin-top: 6px; }
.chart-skipped { background: #fff; border: 1px dashed #c9a227; border-radius: 6px; padding: 14px; color: #6b5200; }
section.table { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 12px 12px; margin: 0 0 16px; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: 12.5px; min-width: 40%; }
th, td { padding: 4px 7px; border-bottom: 1px solid var(--line); text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
th { vertical-align: bottom; white-space: normal; min-width: 3.5em; max-width: 9em; border-bottom: 2px solid #9aa4ae; }
td.wrap { white-space: normal; min-width: 9em; text-align: left; overflow-wrap: break-word; }
th.k-label, td.k-label { text-align: left; }
th.k-label { max-width: none; }
.findings table th, .findings table td { text-align: left; white-space: normal; max-width: none; }
.findings table td.num { text-align: right; }
${Object.entries(KIND_TINT)
  .map(([k, c]) => `th.k-${k} { background: #${c}; }`)
  .join('\n')}
td.k-projected { background: #fdf3e8; font-style: italic; }
th.k-projected { font-style: italic; }
td.k-published { color: #6a6a6a; }
tbody tr:hover td { background: #f1f5fb; }
ul.notes { margin: 8px 0 0; padding-left: 20px; color: var(--muted); font-size: 12px; }
a.dl { font-size: 12px; font-weight: normal; }
footer { color: var(--muted); font-size: 12px; padding: 20px; }
`;
