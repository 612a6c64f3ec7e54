import type { ChartDef } from './chart.ts';
import { axisTitle, cellText, requireColumns, toLabel, toNumber } from './columns.ts';
import { REAL_SUITE, SYNTHETIC_SUITE, suiteNameIn, type Suite } from '../../table/suites.ts';
import {
  AUTOSIZE,
  CHART_CONFIG,
  CHART_WIDTH,
  chartTitle,
  legendColumns,
  SCHEMA,
  SOURCE_COLORS,
  SUITE_COLORS,
  textWidthPx,
} from './spec-base.ts';

/**
 * Tool tokens per turn by method on each suite, from `table3-measured` and, when the run has
 * it, `table3-measured-real` (columns method, toolTokens; the published figure, `pubTokens`
 * such as "47,312 ± 210", is drawn beside them when present). A dot plot on a log scale, one row
 * per method: the method names stay level and whole, and the chart stays short however many
 * methods ran (the exact figures are in each mark's tooltip and in the table).
 */
const PUBLISHED = 'published (paper testbed)';
/** One row per method: a dot plot stays short with many methods, so the page's first chart fits its first screen. */
const ROW_PX = 14;
/** A shape per series besides its colour, so marks of equal value stay told apart. */
const SHAPES = ['circle', 'square', 'diamond'];

export const toolTokensChart: ChartDef = {
  id: 'tool-tokens-per-turn',
  title: 'Tool tokens per turn by method, on each suite',
  // The real suite's half when the run has it (the default bench); a user's catalog has the first only.
  sources: [`${SYNTHETIC_SUITE.measuredTable}|${REAL_SUITE.measuredTable}`],
  build([tables], info) {
    // The first suite is the run's catalog: synthetic-120 by default, a user's with --catalog.
    const measured = (suite: Suite) => `${suiteNameIn(suite, info?.catalog.name)} (measured)`;
    const series = [
      { name: measured(SYNTHETIC_SUITE), color: SOURCE_COLORS.measured },
      { name: measured(REAL_SUITE), color: SUITE_COLORS.real },
      { name: PUBLISHED, color: SOURCE_COLORS.published },
    ];
    const values = tables!.flatMap((t) => {
      requireColumns(t, ['method', 'toolTokens']);
      const measuredAs = measured(t.id === REAL_SUITE.measuredTable ? REAL_SUITE : SYNTHETIC_SUITE);
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
    const shown = series.filter((s) => values.some((v) => v.source === s.name));
    const methods = [...new Set(values.map((v) => v.method))];
    const suites = shown.filter((s) => s.name !== PUBLISHED).map((s) => s.name.replace(' (measured)', ''));
    const published = shown.some((s) => s.name === PUBLISHED);
    const t = tables![0]!;
    const tokensTitle = axisTitle(t, 'toolTokens');
    return {
      $schema: SCHEMA,
      title: chartTitle(
        'Tool tokens per turn by method, on each suite',
        `measured by this harness on ${suites.join(' and ')}${published ? "; published: the paper's Table 3, its testbed" : ''}`,
      ),
      width: CHART_WIDTH,
      autosize: AUTOSIZE,
      height: methods.length * ROW_PX, // fixed, not a step: autosize fit-x needs a continuous height
      config: CHART_CONFIG,
      data: { values },
      mark: { type: 'point', filled: true, size: 40, opacity: 0.9 },
      encoding: {
        y: { field: 'method', type: 'nominal', sort: methods, title: null, axis: { labelLimit: 0 } },
        // Each suite a little apart within its method's row: equal figures stay two visible marks.
        yOffset: { field: 'source', type: 'nominal', sort: shown.map((s) => s.name) },
        x: {
          field: 'tokens',
          type: 'quantitative',
          scale: { type: 'log', nice: false, padding: 8 },
          title: `${tokensTitle} (log scale)`,
          axis: { format: '~s', labelSeparation: 8, labelFlush: true, labelBound: true },
        },
        color: {
          field: 'source',
          type: 'nominal',
          title: null,
          scale: { domain: shown.map((s) => s.name), range: shown.map((s) => s.color) },
          legend: {
            orient: 'bottom',
            direction: 'horizontal',
            columns: legendColumns(
              shown.map((s) => s.name),
              CHART_WIDTH - textWidthPx(methods, CHART_CONFIG.axis?.labelFontSize as number),
            ),
          },
        },
        shape: { field: 'source', type: 'nominal', scale: { domain: shown.map((s) => s.name), range: SHAPES.slice(0, shown.length) } },
        tooltip: [{ field: 'method' }, { field: 'source' }, { field: 'figure', title: tokensTitle }, { field: 'table' }],
      },
    };
  },
};
