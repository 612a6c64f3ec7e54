import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_FILES, renderReports } from '../../src/report/render-reports.ts';
import type { ChartResult } from '../../src/report/charts/write-charts.ts';
import { renderPage } from '../../src/report/html-page.ts';
import { CHARTS } from '../../src/report/charts/registry.ts';
import { esc } from '../../src/report/html-escape.ts';
import { inlineSvg } from '../../src/report/svg-inline.ts';
import { FIXTURE_TABLES } from './fixture.ts';
import { renderFixture } from './render-fixture.ts';

let html: string;
let reportsDir: string;
let again: string;
let charts: ChartResult[];
let partial: string;
let partialLog: string[];

beforeAll(async () => {
  const full = await renderFixture();
  reportsDir = full.reportsDir;
  charts = full.set.charts;
  again = mkdtempSync(join(tmpdir(), 'tooltax-reports-again-'));
  await renderReports(full.resultsDir, again, { log: () => {} });
  html = readFileSync(join(reportsDir, 'index.html'), 'utf8');
  const some = await renderFixture(['scaling', 'table3-projected']);
  partial = readFileSync(join(some.reportsDir, 'index.html'), 'utf8');
  partialLog = some.log;
});

afterAll(() => rmSync(again, { recursive: true, force: true }));

describe('reports/index.html', () => {
  it('shows every table with its title, headers and formatted cells', () => {
    for (const t of FIXTURE_TABLES) {
      expect(html).toContain(`<section class="table" id="table-${t.id}">`);
      expect(html).toContain(esc(t.title));
    }
    expect(html).toContain('<td class="k-measured">4,163</td>');
    expect(html).toContain('<td class="k-difference">+767.3</td>');
    expect(html).toContain('<td class="k-published">480 ± 30</td>');
  });

  it('marks every projected column header † and explains measured vs projected vs published', () => {
    const projectedHeaders = [...html.matchAll(/<th class="k-projected"[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]);
    expect(projectedHeaders).toEqual(['success % †', 'rho T30 †']);
    expect(html).toMatch(/<section class="legend"[\s\S]*projected †[\s\S]*not a measurement[\s\S]*published[\s\S]*<\/section>/);
    expect(html).toContain('Columns marked <b>†</b> are <b>projections</b>');
  });

  it('shows every chart as static SVG (the no-JavaScript fallback) with its inline Vega-Lite spec and links', () => {
    for (const c of CHARTS) {
      const figure = new RegExp(
        `<figure class="chart" id="chart-${c.id}" data-spec="spec-${c.id}">\\s*<div class="chart-live"></div>\\s*<div class="chart-static"><svg[^>]*class="marks"[\\s\\S]*?</svg></div>\\s*<script type="application/json" id="spec-${c.id}">([^<]*)</script>\\s*<figcaption>[\\s\\S]*?charts/${c.id}\\.vl\\.json[\\s\\S]*?</figure>`,
      );
      const m = figure.exec(html);
      expect(m, c.id).not.toBeNull();
      expect(JSON.parse(m![1]!)).toEqual(JSON.parse(readFileSync(join(reportsDir, 'charts', `${c.id}.vl.json`), 'utf8')));
    }
    expect(html.match(/<svg\b/g)).toHaveLength(CHARTS.length);
  });

  it('has a table of contents linking every chart and table, and a CSV download beside each table', () => {
    const toc = /<nav class="toc"[\s\S]*?<\/nav>/.exec(html)![0];
    for (const c of CHARTS) expect(toc).toContain(`<a href="#chart-${c.id}">`);
    for (const t of FIXTURE_TABLES) {
      expect(toc).toContain(`<a href="#table-${t.id}">`);
      expect(html).toContain(`<a class="dl" href="csv/${t.id}.csv" download type="text/csv">Download CSV</a>`);
      expect(existsSync(join(reportsDir, 'csv', `${t.id}.csv`))).toBe(true);
    }
  });

  it('shows the run: catalog, tokenizer, host, encoder, retriever, index, θ, seeds, time', () => {
    for (const [label, value] of [
      ['catalog', 'synthetic-120 (120 tools, 6 servers)'],
      ['tokenizer', 'cl100k_base'],
      ['host', 'mcp-json (compact tools/list JSON)'],
      ['encoder', 'use-lite'],
      ['retriever', 'dense:use-lite (paper form) (TA)'],
      ['index', 'exact-flat-ip (TA)'],
      ['θ', '0.28 (TA)'],
      ['seeds', '42, 43, 44'],
    ])
      expect(html).toContain(`<dt>${label}</dt><dd>${esc(value!)}</dd>`);
    expect(html).toMatch(/<dt>time<\/dt><dd>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC; bench took 12\.5 s<\/dd>/);
  });

  it('opens with the findings, then a line each for the run, the legend and the contents (folded away), then charts, then tables', () => {
    const at = (needle: string) => {
      const i = html.indexOf(needle);
      expect(i, needle).toBeGreaterThan(-1);
      return i;
    };
    const order = [
      '<section class="findings"',
      '<details class="run">',
      '<details class="legend-details">',
      '<details class="toc-details">',
      '<h2 class="part">Charts</h2>',
      '<h2 class="part">Tables</h2>',
    ].map(at);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Closed by default: each keeps one summary line on the page.
    expect(html).not.toMatch(/<details[^>]*\sopen/);
    expect(html).toContain(
      '<summary><b>Run</b>: synthetic-120 (120 tools, 6 servers) · cl100k_base · mcp-json (compact tools/list JSON) · use-lite · 42, 43, 44</summary>',
    );
    for (const inside of ['<dl class="facts">', '<section class="legend"', '<nav class="toc"'])
      expect(html.slice(order[1], order[4])).toContain(inside);
    expect(partial).toMatch(/<details class="report-notes"><summary><b>Report notes<\/b>: 2 /);
  });

  it('loads only the vega bundle beside it: no other script file, no stylesheet link, nothing from the web', () => {
    expect([...html.matchAll(/<script\b[^>]*\ssrc="([^"]*)"/g)].map((m) => m[1])).toEqual(['vendor/vega-embed.js']);
    expect(readFileSync(join(reportsDir, 'vendor', 'vega-embed.js'), 'utf8')).toMatch(
      /^\/\* tooltax report charts: vega 6\.[\s\S]*globalThis\.vegaEmbed=/,
    );
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/@import|url\(\s*['"]?https?:/i);
    expect(html).not.toMatch(/\s(src|href)=["']?(https?:)?\/\//i);
  });

  it('keeps a chart spec from closing its script element', () => {
    expect([...html.matchAll(/<script type="application\/json"[^>]*>([\s\S]*?)<\/script>/g)].every((m) => !m[1]!.includes('<'))).toBe(true);
  });

  it('gives every element id once, even with several charts', () => {
    const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('says which charts were skipped and why, on the page and in the log', () => {
    expect(partial).toContain(
      '<div class="chart-skipped" id="chart-rho-vs-catalog-size"><b>rho vs catalog size N</b>: not drawn: no table &quot;scaling&quot; in the results',
    );
    expect(partial).toContain('Success † vs tool tokens (Pareto)</b>: not drawn: no table &quot;table3-projected&quot;');
    expect(partial).toMatch(/<section class="report-notes"[\s\S]*chart rho-vs-catalog-size skipped/);
    expect(partialLog).toContain(
      'report: chart rho-vs-catalog-size skipped: no table "scaling" in the results (this run did not produce it)',
    );
    expect(partial.match(/<svg\b/g)).toHaveLength(CHARTS.length - 2);
  });
});

describe('without the vega bundle (it could not be built)', () => {
  it('has no script at all, and every chart is its static SVG', () => {
    const page = renderPage({
      tables: FIXTURE_TABLES,
      findings: [],
      facts: [],
      charts,
      notes: [],
      files: REPORT_FILES,
      interactive: false,
      runFinishedAt: undefined,
    });
    expect(page).not.toMatch(/<script\b/i);
    expect(page).not.toContain('data-spec=');
    expect(page.match(/<div class="chart-static"><svg\b/g)).toHaveLength(CHARTS.length);
  });
});

describe('rendering the same results again', () => {
  it('writes the same bytes: page, vega bundle, chart specs, SVGs and PNGs (the workbook aside)', () => {
    const files = [
      'index.html',
      'vendor/vega-embed.js',
      'tables.md',
      ...CHARTS.flatMap((c) => ['.vl.json', '.svg', '.png'].map((e) => `charts/${c.id}${e}`)),
    ];
    for (const f of files) expect(readFileSync(join(again, f)).equals(readFileSync(join(reportsDir, f))), f).toBe(true);
    expect(html).toContain('(run finished 2026-01-01 00:00:12 UTC)');
  });
});

describe('inlineSvg', () => {
  it('prefixes ids and their references, and makes the chart responsive', () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200" viewBox="0 0 300 200"><defs><clipPath id="clip1"><rect/></clipPath></defs><g clip-path="url(#clip1)"></g></svg>';
    const out = inlineSvg(svg, 'c-x', 'A "chart"');
    expect(out).toContain('id="c-x-clip1"');
    expect(out).toContain('url(#c-x-clip1)');
    expect(out).not.toContain('"clip1"');
    expect(out).toMatch(/^<svg role="img" aria-label="A &quot;chart&quot;" preserveAspectRatio="xMinYMin meet" style="max-width:300px"/);
  });
});
