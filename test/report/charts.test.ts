import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compile, type TopLevelSpec } from 'vega-lite';
import { afterEach, describe, expect, it } from 'vitest';
import { describeSource, matchSource } from '../../src/report/charts/chart.ts';
import { toNumber } from '../../src/report/charts/columns.ts';
import { CHARTS } from '../../src/report/charts/registry.ts';
import { buildChart, writeCharts } from '../../src/report/charts/write-charts.ts';
import { paretoChart } from '../../src/report/charts/pareto.ts';
import { pngAvailability } from '../../src/report/charts/png.ts';
import type { Table } from '../../src/table/table.ts';
import { FIXTURE_RUN_INFO, FIXTURE_TABLES } from './fixture.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'tooltax-charts-'));
const table = (id: string) => structuredClone(FIXTURE_TABLES.find((t) => t.id === id)!);

describe('chart registry', () => {
  it('has one entry per chart with a unique id, a title and its source tables', () => {
    expect(new Set(CHARTS.map((c) => c.id)).size).toBe(CHARTS.length);
    expect(CHARTS.map((c) => c.id)).toEqual([
      'tool-tokens-per-turn',
      'reduction-vs-b1',
      'rho-vs-catalog-size',
      'f1-vs-theta',
      'retrieval-recall-at-k',
      'success-vs-tokens',
      'aacp-tokens-per-hop',
    ]);
    for (const c of CHARTS) {
      expect(c.title).not.toBe('');
      expect(c.sources.length).toBeGreaterThan(0);
    }
  });

  it('matches source ids exactly, or by prefix with a trailing *', () => {
    expect(matchSource('threshold-sweep*', FIXTURE_TABLES).map((t) => t.id)).toEqual(['threshold-sweep-tfidf']);
    expect(matchSource('threshold-sweep*|threshold-calibration*', FIXTURE_TABLES).map((t) => t.id)).toEqual([
      'threshold-calibration-use-lite',
      'threshold-sweep-tfidf',
    ]);
    expect(describeSource('threshold-sweep*|threshold-calibration*')).toBe(
      'no table whose id starts with "threshold-sweep" or whose id starts with "threshold-calibration"',
    );
    expect(matchSource('table3-measured', FIXTURE_TABLES).map((t) => t.id)).toEqual(['table3-measured']);
    expect(matchSource('table3', FIXTURE_TABLES)).toEqual([]);
  });
});

describe.each(CHARTS.map((c) => [c.id, c] as const))('chart %s', (_id, def) => {
  it('builds a Vega-Lite spec that compiles without warnings and renders SVG with marks', async () => {
    const result = await buildChart(def, FIXTURE_TABLES, FIXTURE_RUN_INFO);
    expect(result.status, result.reason).toBe('rendered');
    const warnings: unknown[] = [];
    const logger = {
      level: () => logger,
      error: (...a: unknown[]) => (warnings.push(a), logger),
      warn: (...a: unknown[]) => (warnings.push(a), logger),
      info: () => logger,
      debug: () => logger,
    };
    expect(() => compile(result.spec as TopLevelSpec, { logger: logger as never })).not.toThrow();
    expect(warnings).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.svg).toMatch(/^<svg[^>]*class="marks"/);
    expect(result.svg).toMatch(/class="mark-(rect|line|symbol)[^"]*"[^>]*>\s*<path/);
  });
});

describe('writeCharts', () => {
  const saved = process.env.RSVG_CONVERT;
  afterEach(() => {
    if (saved === undefined) delete process.env.RSVG_CONVERT;
    else process.env.RSVG_CONVERT = saved;
  });

  it('writes charts/<id>.vl.json and .svg (and .png when rsvg-convert is there) for every chart', async () => {
    const dir = tmp();
    const { charts, png, notes } = await writeCharts(dir, FIXTURE_TABLES, FIXTURE_RUN_INFO);
    for (const c of charts) {
      expect(c.status).toBe('rendered');
      const spec = JSON.parse(readFileSync(join(dir, 'charts', `${c.id}.vl.json`), 'utf8'));
      expect(spec.$schema).toMatch(/vega-lite/);
      expect(spec).toEqual(c.spec);
      expect(readFileSync(join(dir, 'charts', `${c.id}.svg`), 'utf8')).toBe(c.svg);
      expect(existsSync(join(dir, 'charts', `${c.id}.png`))).toBe(png.available);
    }
    if (png.available) {
      expect(notes).toEqual([]);
      expect(
        readFileSync(join(dir, 'charts', 'f1-vs-theta.png'))
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
    } else {
      console.warn(`[test/report/charts] PNG not checked: ${png.reason}`);
      expect(notes[0]).toMatch(/^PNG charts skipped: /);
    }
  });

  it('says clearly when PNGs are skipped and why, and removes stale PNGs', async () => {
    const dir = tmp();
    process.env.RSVG_CONVERT = '/nonexistent/rsvg-convert';
    const { png, notes, charts } = await writeCharts(dir, FIXTURE_TABLES, FIXTURE_RUN_INFO);
    expect(png.available).toBe(false);
    expect(notes[0]).toBe(
      "PNG charts skipped: /nonexistent/rsvg-convert not found; install Debian's librsvg2-bin (apt-get install -y librsvg2-bin) to get PNG charts. SVG charts and the HTML page are complete.",
    );
    expect(charts.every((c) => c.files.png === undefined && c.files.svg !== undefined)).toBe(true);
    expect(existsSync(join(dir, 'charts', 'f1-vs-theta.png'))).toBe(false);
  });

  it('skips a chart whose table is absent, with a note naming it, and removes its old files', async () => {
    const dir = tmp();
    await writeCharts(dir, FIXTURE_TABLES, FIXTURE_RUN_INFO);
    expect(existsSync(join(dir, 'charts', 'rho-vs-catalog-size.svg'))).toBe(true);
    const { charts, notes } = await writeCharts(
      dir,
      FIXTURE_TABLES.filter((t) => t.id !== 'scaling' && !t.id.startsWith('aacp-')),
      FIXTURE_RUN_INFO,
    );
    const rho = charts.find((c) => c.id === 'rho-vs-catalog-size')!;
    expect(rho.status).toBe('skipped');
    expect(rho.reason).toBe('no table "scaling" in the results (this run did not produce it)');
    expect(notes).toContain('chart rho-vs-catalog-size skipped: no table "scaling" in the results (this run did not produce it)');
    expect(notes).toContain(
      'chart aacp-tokens-per-hop skipped: no table whose id starts with "aacp-" in the results (this run did not produce it)',
    );
    for (const ext of ['.vl.json', '.svg', '.png']) expect(existsSync(join(dir, 'charts', `rho-vs-catalog-size${ext}`))).toBe(false);
    expect(charts.filter((c) => c.status === 'rendered')).toHaveLength(CHARTS.length - 2);
  });

  it('names each encoder after its table id when there is no encoder column', async () => {
    const def = CHARTS.find((c) => c.id === 'f1-vs-theta')!;
    const spec = def.build([FIXTURE_TABLES.filter((t) => t.id.startsWith('threshold-'))], undefined) as {
      layer: { data: { values: { encoder: string }[] } }[];
    };
    expect([...new Set(spec.layer[0]!.data.values.map((v) => v.encoder))]).toEqual(['use-lite', 'tfidf']);
  });

  it('accepts N or n as the catalog-size column of the scaling table', async () => {
    const scaling = table('scaling');
    for (const c of scaling.columns) if (c.key === 'n') c.key = 'N';
    for (const r of scaling.rows) r.N = r.n;
    const def = CHARTS.find((c) => c.id === 'rho-vs-catalog-size')!;
    expect((await buildChart(def, [scaling], undefined)).status).toBe('rendered');
    scaling.columns = scaling.columns.filter((c) => c.key !== 'N');
    expect((await buildChart(def, [scaling], undefined)).reason).toBe('table scaling has no column N or n');
  });

  it('skips a chart whose table lacks a needed column, naming the column', async () => {
    const scaling = table('scaling');
    scaling.columns = scaling.columns.filter((c) => c.key !== 'rho');
    const def = CHARTS.find((c) => c.id === 'rho-vs-catalog-size')!;
    const result = await buildChart(def, [scaling], undefined);
    expect(result.status).toBe('skipped');
    expect(result.reason).toMatch(/table scaling has no column rho/);
  });
});

describe('chart contents', () => {
  it('the Pareto chart marks the success axis † even when its column is not declared projected', async () => {
    const projected = table('table3-projected');
    projected.columns.find((c) => c.key === 'success')!.kind = 'measured';
    const spec = paretoChart.build([[projected], [table('table3-measured')]], undefined) as { encoding: { y: { title: string } } };
    expect(spec.encoding.y.title).toBe('success % †');
  });

  it('the Pareto front keeps each method that beats every cheaper one on success', () => {
    const measured: Table = {
      id: 'table3-measured',
      title: '',
      columns: [
        { key: 'method', header: 'method', kind: 'label' },
        { key: 'toolTokens', header: 't', kind: 'measured' },
      ],
      rows: [],
    };
    const projected: Table = {
      id: 'table3-projected',
      title: '',
      columns: [
        { key: 'method', header: 'method', kind: 'label' },
        { key: 'success', header: 'success %', kind: 'projected' },
      ],
      rows: [],
    };
    for (const [method, tokens, success] of [
      ['A', 500, 80],
      ['B', 2000, 94],
      ['C', 4000, 81],
      ['D', 47000, 72],
      ['E', 100, 60],
    ] as const) {
      measured.rows.push({ method, toolTokens: tokens });
      projected.rows.push({ method, success });
    }
    const spec = paretoChart.build([[projected], [measured]], undefined) as {
      layer: { data: { values: { method: string; front?: string }[] } }[];
    };
    expect(spec.layer[0]!.data.values.map((v) => v.method)).toEqual(['E', 'A', 'B']);
    expect(spec.layer[1]!.data.values.filter((v) => v.front === 'dominated').map((v) => v.method)).toEqual(['C', 'D']);
  });

  it('the rho chart draws the fracture line at 0.3 and marks a projected rho axis †', async () => {
    const def = CHARTS.find((c) => c.id === 'rho-vs-catalog-size')!;
    const spec = def.build([[table('scaling')]], undefined) as unknown as {
      layer: { data: { values: Record<string, unknown>[] }; encoding: { y: { title?: string } } }[];
    };
    expect(spec.layer[1]!.data.values).toEqual([{ rho: 0.3 }]);
    expect(spec.layer[0]!.encoding.y.title).toBe('rho T30 †');
  });

  it('the AACP chart draws the run tokenizer with bare framing only', async () => {
    const def = CHARTS.find((c) => c.id === 'aacp-tokens-per-hop')!;
    const spec = def.build([[table('aacp-hops')]], { ...FIXTURE_RUN_INFO, tokenizer: 'o200k_base' }) as {
      data: { values: { hop: string; language: string; tokens: number }[] };
      title: { subtitle: string };
    };
    expect(spec.data.values).toHaveLength(8);
    expect(spec.data.values[0]).toEqual({ hop: 'payroll · fetch-employees', language: 'English', tokens: 48 });
    expect(spec.title.subtitle).toBe('from table aacp-hops; tokenizer o200k_base; framing bare');
  });

  it('reads published figures stored as text', () => {
    expect(toNumber('47,312 ± 210')).toBe(47312);
    expect(toNumber('480 ± 30')).toBe(480);
    expect(toNumber('0.24')).toBe(0.24);
    expect(toNumber('—')).toBeUndefined();
    expect(toNumber(null)).toBeUndefined();
  });

  it('finds rsvg-convert or explains why not', () => {
    const png = pngAvailability();
    expect(png.available ? png.version : png.reason).toMatch(/rsvg-convert/);
  });
});
