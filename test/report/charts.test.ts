import { makeTempDir } from '../helpers/temp.ts';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compile, type TopLevelSpec } from 'vega-lite';
import { describe, expect, it } from 'vitest';
import { describeSource, matchSource } from '../../src/report/charts/chart.ts';
import { toNumber } from '../../src/report/charts/columns.ts';
import { CHARTS } from '../../src/report/charts/registry.ts';
import { buildChart, writeCharts } from '../../src/report/charts/write-charts.ts';
import { paretoChart } from '../../src/report/charts/pareto.ts';
import { placeLabels } from '../../src/report/charts/label-placement.ts';
import { legendColumns } from '../../src/report/charts/spec-base.ts';
import { formatCell, type Table } from '../../src/table/table.ts';
import { FIXTURE_RUN_INFO, FIXTURE_TABLES } from './fixture.ts';

const tmp = () => makeTempDir('tooltax-charts-');
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
      'retrieval-generalisation',
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
  it('writes charts/<id>.vl.json, .svg and .png for every chart', async () => {
    const dir = tmp();
    const { charts, png, notes } = await writeCharts(dir, FIXTURE_TABLES, FIXTURE_RUN_INFO);
    expect(png.available ? png.renderer.id : png.reason).toBe('resvg');
    expect(notes).toEqual([]);
    for (const c of charts) {
      expect(c.status).toBe('rendered');
      const spec = JSON.parse(readFileSync(join(dir, 'charts', `${c.id}.vl.json`), 'utf8'));
      expect(spec.$schema).toMatch(/vega-lite/);
      expect(spec).toEqual(c.spec);
      expect(readFileSync(join(dir, 'charts', `${c.id}.svg`), 'utf8')).toBe(c.svg);
      expect(c.png).toBe('written');
      expect(c.files.png).toBe(`charts/${c.id}.png`);
      expect(
        readFileSync(join(dir, 'charts', `${c.id}.png`))
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
    }
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

/** Empty Table 3 halves (measured tool tokens, projected success) for the Pareto chart; tests push their rows. */
function paretoTables(): { measured: Table; projected: Table } {
  const half = (id: string, key: string, header: string, kind: 'measured' | 'projected'): Table => ({
    id,
    title: '',
    columns: [
      { key: 'method', header: 'method', kind: 'label' },
      { key, header, kind },
    ],
    rows: [],
  });
  return {
    measured: half('table3-measured', 'toolTokens', 't', 'measured'),
    projected: half('table3-projected', 'success', 'success %', 'projected'),
  };
}

describe('chart contents', () => {
  it('the Pareto chart marks the success axis † even when its column is not declared projected', async () => {
    const projected = table('table3-projected');
    projected.columns.find((c) => c.key === 'success')!.kind = 'measured';
    const spec = paretoChart.build([[projected], [table('table3-measured')]], undefined) as { encoding: { y: { title: string } } };
    expect(spec.encoding.y.title).toBe('success % †');
  });

  it('the Pareto front keeps each method that beats every cheaper one on success', () => {
    const { measured, projected } = paretoTables();
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
      data: { values: { hop: string; language: string; tokens: number; figure: string }[] };
      title: { subtitle: string };
    };
    expect(spec.data.values).toHaveLength(8);
    expect(spec.data.values[0]).toEqual({ hop: 'payroll · fetch-employees', language: 'English', tokens: 48, figure: '48' });
    expect(spec.title.subtitle).toBe('from table aacp-hops; tokenizer o200k_base; framing bare');
  });

  it("names the first suite after a user's catalog and draws no published bar or legend entry where the run has none", async () => {
    // What a bench --catalog run writes: table3-measured of the user's catalog, without published columns.
    const mine = table('table3-measured');
    mine.columns = mine.columns.filter((c) => c.kind !== 'published' && c.kind !== 'difference');
    mine.rows = mine.rows.map((r) =>
      Object.fromEntries(Object.entries(r).filter(([k]) => mine.columns.some((c) => c.key === k) || k === 'pipeline')),
    );
    const info = { ...FIXTURE_RUN_INFO, catalog: { ...FIXTURE_RUN_INFO.catalog, name: 'my-servers' } };
    type Bars = {
      data: { values: { source: string }[] };
      title: { subtitle: string | string[] };
      encoding: { color: { scale: { domain: string[] } } };
    };
    const tokens = (
      await buildChart(
        CHARTS.find((c) => c.id === 'tool-tokens-per-turn')!,
        [mine],
        info,
      )
    ).spec as unknown as Bars;
    expect([...new Set(tokens.data.values.map((v) => v.source))]).toEqual(['my-servers (measured)']);
    expect(tokens.encoding.color.scale.domain).toEqual(['my-servers (measured)']);
    expect(tokens.title.subtitle).toBe('measured by this harness on my-servers');
    const reduction = (
      await buildChart(
        CHARTS.find((c) => c.id === 'reduction-vs-b1')!,
        [mine],
        info,
      )
    ).spec as unknown as Bars;
    expect(reduction.encoding.color.scale.domain).toEqual(['measured']);
    expect(reduction.title.subtitle).toBe('100 × (1 − method / baseline)');
  });

  it('fits every bottom legend in the chart width: fewer columns for longer labels', () => {
    expect(legendColumns(['a', 'b', 'c'])).toBe(3);
    expect(legendColumns(['bm25-coverage: best θ 1.00', 'dense-use-lite-coverage: best θ 0.55', 'x'])).toBe(2);
    expect(legendColumns(['github+filesystem+supabase+slack+firecrawl+jira (measured)'], 300)).toBe(1);
  });

  it('reads published figures stored as text', () => {
    expect(toNumber('47,312 ± 210')).toBe(47312);
    expect(toNumber('480 ± 30')).toBe(480);
    expect(toNumber('0.24')).toBe(0.24);
    expect(toNumber('—')).toBeUndefined();
    expect(toNumber(null)).toBeUndefined();
  });
});

describe('chart tooltips', () => {
  it('show each figure exactly as its table prints it', async () => {
    const t3 = table('table3-measured');
    const result = await buildChart(
      CHARTS.find((c) => c.id === 'tool-tokens-per-turn')!,
      FIXTURE_TABLES,
      FIXTURE_RUN_INFO,
    );
    const values = (result.spec as { data: { values: { method: string; source: string; figure: string }[] } }).data.values;
    const b3 = t3.rows.find((r) => String(r.method).startsWith('B4'))!; // 4163.18 tokens: a fraction the table rounds
    const col = t3.columns.find((c) => c.key === 'toolTokens')!;
    expect(values.find((v) => v.method === b3.method && v.source === 'synthetic-120 (measured)')!.figure).toBe(
      formatCell(b3.toolTokens, col),
    );
    expect(formatCell(b3.toolTokens, col)).toBe('4,163');
    expect(values.find((v) => v.method === b3.method && v.source === 'published (paper testbed)')!.figure).toBe(String(b3.pubTokens));
  });
});

describe('the first chart with many methods', () => {
  it('draws one row per method (a dot plot), so its height grows by one row, not one bar per suite, per method', async () => {
    const def = CHARTS.find((c) => c.id === 'tool-tokens-per-turn')!;
    const rows = Array.from({ length: 20 }, (_, i) => ({
      method: `M${i}`,
      toolTokens: 1_000 * (i + 1),
      pubTokens: `${900 * (i + 1)} ± 5`,
    }));
    const t3 = { ...table('table3-measured'), rows };
    const real = { ...table('table3-measured'), id: 'table3-measured-real', rows: rows.map(({ pubTokens: _, ...r }) => r) };
    const result = await buildChart(def, [t3, real], FIXTURE_RUN_INFO);
    expect(result.status, result.reason).toBe('rendered');
    const spec = result.spec as { height: number; mark: { type: string }; data: { values: unknown[] } };
    expect(spec.mark.type).toBe('point');
    expect(spec.data.values).toHaveLength(60); // 20 methods × (2 suites + published): every figure is a mark
    expect(spec.height).toBeLessThanOrEqual(20 * 15);
  });
});

describe('negative values on bar charts', () => {
  const tables = (rows: [string, number][]): Table[] => [
    {
      id: 'table3-measured',
      title: '',
      columns: [
        { key: 'method', header: 'method', kind: 'label' },
        { key: 'toolTokens', header: 'tool tokens/turn', kind: 'measured' },
      ],
      rows: rows.map(([method, toolTokens]) => ({ method, toolTokens })),
    },
  ];
  type Layer = { transform?: { filter: string }[]; mark: { type: string; align?: string; dx?: number } };
  type Reduction = {
    encoding: { x: { scale: { domainMin?: number; domainMax: number } } };
    layer: Layer[];
    data: { values: { reduction: number }[] };
  };

  it('a method that sends more than the baseline: its bar left of zero, its label left of the bar, with room on the axis', async () => {
    const def = CHARTS.find((c) => c.id === 'reduction-vs-b1')!;
    const result = await buildChart(
      def,
      tables([
        ['B1', 40_000],
        ['Lean', 4_000],
        ['Code Mode', 48_000],
      ]),
      undefined,
    );
    expect(result.status, result.reason).toBe('rendered');
    expect(result.warnings).toEqual([]);
    const spec = result.spec as unknown as Reduction;
    expect(spec.data.values.map((v) => Math.round(v.reduction))).toEqual([90, -20]);
    const texts = spec.layer.filter((l) => l.mark.type === 'text');
    expect(texts.map((l) => [l.transform?.[0]?.filter, l.mark.align, Math.sign(l.mark.dx!)])).toEqual([
      ['datum["reduction"] >= 0', 'left', 1],
      ['datum["reduction"] < 0', 'right', -1],
    ]);
    // The axis reaches below −20 by at least the label's width: the label is drawn inside the chart, not clipped.
    const { domainMin, domainMax } = spec.encoding.x.scale;
    expect(domainMax).toBe(100);
    expect(domainMin).toBeLessThan(-20 - 0.05 * (100 - domainMin!));
  });

  it('without a negative value the axis and the labels are as before: no lower bound, labels right of the bars only', async () => {
    const def = CHARTS.find((c) => c.id === 'reduction-vs-b1')!;
    const spec = (
      await buildChart(
        def,
        tables([
          ['B1', 40_000],
          ['Lean', 4_000],
        ]),
        undefined,
      )
    ).spec as unknown as Reduction;
    expect(spec.encoding.x.scale).toEqual({ domainMax: 100 });
    expect(spec.layer.filter((l) => l.mark.type === 'text')).toHaveLength(1);
  });
});

describe('scatter label placement', () => {
  const plot = { width: 500, height: 300 };
  it('puts a name right-above its point when that side is free', () => {
    expect(placeLabels([{ x: 100, y: 100, label: 'B2 Static Pruning' }], plot, 10)).toEqual(['right-above']);
  });

  it('moves a name off a neighbouring point, and inside the plot at its edges', () => {
    const sides = placeLabels(
      [
        { x: 100, y: 200, label: 'B3 Simple Retrieval' }, // right-above would cover B2's point
        { x: 160, y: 192, label: 'B2 Static Pruning' },
        { x: 490, y: 100, label: 'B1 Full-Schema' }, // at the right edge
        { x: 10, y: 5, label: 'B4 CLI Lazy' }, // at the top-left corner
      ],
      plot,
      10,
    );
    expect(sides).toEqual(['right-below', 'right-above', 'left-above', 'right-below']);
  });

  it('takes a farther side (with a leader line) when every near one is taken, and gives up inside a crowd', () => {
    // A point boxed in by six neighbours, one on each near side: its name goes further off.
    const neighbours = [
      [215, 145],
      [215, 155],
      [185, 145],
      [185, 155],
      [200, 135],
      [200, 165],
    ] as const;
    const boxed = [{ x: 200, y: 150, label: 'boxed in' }, ...neighbours.map(([x, y]) => ({ x, y, label: 'n' }))];
    expect(placeLabels(boxed, plot, 10)[0]).toBe('far-right-above');
    // A dense grid: most names fit nowhere and get none (null), never a side that overlaps.
    const grid = Array.from({ length: 64 }, (_, i) => ({
      x: 200 + 6 * (i % 8),
      y: 120 + 6 * Math.floor(i / 8),
      label: 'a long method name',
    }));
    const sides = placeLabels(grid, plot, 10);
    expect(sides.filter((s) => s === null).length).toBeGreaterThan(32);
    expect(sides.filter((s) => s !== null).length).toBeGreaterThan(0);
  });

  it('places names in the order given: the first gets its preferred side', () => {
    const pair = [
      { x: 100, y: 100, label: 'first' },
      { x: 100, y: 102, label: 'second' }, // drawn as one point with the first
    ];
    expect(placeLabels(pair, plot, 10)).toEqual(['right-above', 'right-below']);
    expect(placeLabels(pair, plot, 10, [1, 0])).toEqual(['left-above', 'right-above']);
  });
});

describe('the Pareto chart in a crowd', () => {
  it('names every point or lists it under the title; no name is drawn twice or lost', () => {
    const { measured, projected } = paretoTables();
    // Twelve methods within a few per cent of each other on both axes.
    for (let i = 0; i < 12; i++) {
      measured.rows.push({ method: `Method number ${i}`, toolTokens: 10_000 + 150 * i });
      projected.rows.push({ method: `Method number ${i}`, success: 50 + (i % 3) });
    }
    measured.rows.push({ method: 'Far away', toolTokens: 200 });
    projected.rows.push({ method: 'Far away', success: 90 });
    const spec = paretoChart.build([[projected], [measured]], undefined) as {
      title: { subtitle: string[] };
      layer: { data: { values: { method: string; labelSide: string }[] } }[];
    };
    const values = spec.layer[1]!.data.values;
    const named = values.filter((v) => v.labelSide !== 'none').map((v) => v.method);
    const unnamed = values.filter((v) => v.labelSide === 'none').map((v) => v.method);
    expect(unnamed.length).toBeGreaterThan(0);
    expect(named).toContain('Far away');
    const listed = spec.title.subtitle.join(' ');
    expect(listed).toContain('not named for lack of room');
    for (const m of unnamed) expect(listed).toContain(m);
    for (const m of named) expect(listed).not.toContain(`${m},`);
  });
});
