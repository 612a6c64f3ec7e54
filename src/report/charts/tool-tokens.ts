import type { ChartDef } from './chart.ts';
import { axisTitle, cellText, requireColumns, toLabel, toNumber } from './columns.ts';
import { REAL_SUITE, SYNTHETIC_SUITE } from '../../table/suites.ts';
import { AUTOSIZE, CHART_CONFIG, CHART_HEIGHT, CHART_WIDTH, chartTitle, SCHEMA, SOURCE_COLORS, SUITE_COLORS } from './spec-base.ts';

/**
 * Tool tokens per turn by method on each suite, from `table3-measured` and, when the run has
 * it, `table3-measured-real` (columns method, toolTokens; the published figure, `pubTokens`
 * such as "47,312 ± 210", is drawn beside them when present). Horizontal bars: the method
 * names stay level and whole.
 */
const SYNTHETIC = `${SYNTHETIC_SUITE.name} (measured)`;
const REAL = `${REAL_SUITE.name} (measured)`;
const PUBLISHED = 'published (paper testbed)';
const SERIES = [
  { name: SYNTHETIC, color: SOURCE_COLORS.measured },
  { name: REAL, color: SUITE_COLORS.real },
  { name: PUBLISHED, color: SOURCE_COLORS.published },
];
/** Height of one bar, so three bars per method never crowd their value labels. */
const BAR_PX = 14;

export const toolTokensChart: ChartDef = {
  id: 'tool-tokens-per-turn',
  title: 'Tool tokens per turn by method, on each suite',
  // The real suite's half when the run has it (the default bench); a user's catalog has the first only.
  sources: [`${SYNTHETIC_SUITE.measuredTable}|${REAL_SUITE.measuredTable}`],
  build([tables]) {
    const values = tables!.flatMap((t) => {
      requireColumns(t, ['method', 'toolTokens']);
      const measuredAs = t.id === REAL_SUITE.measuredTable ? REAL : SYNTHETIC;
      return t.rows.flatMap((r) => {
        const method = toLabel(r.method);
        const measured = toNumber(r.toolTokens);
        const published = toNumber(r.pubTokens);
        return [
          ...(measured === undefined
            ? []
            : [{ method, source: measuredAs, tokens: measured, figure: cellText(t, 'toolTokens', r.toolTokens), table: t.id }]),
          ...(published === undefined
            ? []
            : [{ method, source: PUBLISHED, tokens: published, figure: cellText(t, 'pubTokens', r.pubTokens), table: t.id }]),
        ];
      });
    });
    const series = SERIES.filter((s) => values.some((v) => v.source === s.name));
    const methods = [...new Set(values.map((v) => v.method))];
    const suites = series.filter((s) => s.name !== PUBLISHED).map((s) => s.name.replace(' (measured)', ''));
    const t = tables![0]!;
    const height = Math.max(CHART_HEIGHT, methods.length * series.length * BAR_PX);
    return {
      $schema: SCHEMA,
      title: chartTitle('Tool tokens per turn by method, on each suite', [
        `measured by this harness on ${suites.join(' and ')}`,
        "published = the paper's Table 3, on its own testbed",
      ]),
      width: CHART_WIDTH,
      autosize: AUTOSIZE,
      height,
      config: CHART_CONFIG,
      data: { values },
      encoding: {
        y: { field: 'method', type: 'nominal', sort: methods, title: null, axis: { labelLimit: 0 } },
        yOffset: { field: 'source', type: 'nominal', sort: series.map((s) => s.name) },
        x: { field: 'tokens', type: 'quantitative', title: axisTitle(t, 'toolTokens'), axis: { format: ',.0f' } },
        color: {
          field: 'source',
          type: 'nominal',
          title: null,
          scale: { domain: series.map((s) => s.name), range: series.map((s) => s.color) },
          // Inside the plot, right of the short bars below B1: a legend row under the chart would be wider than it.
          legend: {
            orient: 'none',
            legendX: 150,
            legendY: Math.round(height * 0.3),
            direction: 'vertical',
            columns: 1,
            fillColor: 'white',
            padding: 4,
          },
        },
      },
      layer: [
        {
          mark: { type: 'bar' },
          encoding: {
            tooltip: [{ field: 'method' }, { field: 'source' }, { field: 'figure', title: axisTitle(t, 'toolTokens') }, { field: 'table' }],
          },
        },
        {
          mark: { type: 'text', align: 'left', baseline: 'middle', dx: 3, fontSize: 10, color: '#333' },
          encoding: { text: { field: 'tokens', format: ',.0f' }, color: { value: '#333' } },
        },
      ],
    };
  },
};
