import type { ChartDef } from './chart.ts';
import { ChartSkip } from './chart.ts';
import { axisTitle, cellText, requireColumns, toLabel, toNumber, withProjectedMark } from './columns.ts';
import { LABEL_MARK, LABEL_SIDES, placeLabels, type PlacedPoint } from './label-placement.ts';
import { AUTOSIZE, CHART_CONFIG, CHART_HEIGHT, CHART_WIDTH, chartTitle, SCHEMA, SOURCE_COLORS } from './spec-base.ts';

/**
 * Success versus tool tokens: projected success († — from a model, not measured) against the
 * measured tool tokens per turn, with the Pareto front (fewest tokens for the most success).
 *
 * Expected table `table3-projected`, one row per method:
 *   method   label      the same method labels as table3-measured (rows are joined on it)
 *   success  projected  task success %, 0 … 100
 * and `table3-measured` (method, toolTokens).
 */
export const paretoChart: ChartDef = {
  id: 'success-vs-tokens',
  title: 'Success † vs tool tokens (Pareto)',
  sources: ['table3-projected', 'table3-measured'],
  build([[projected], [measured]]) {
    requireColumns(projected!, ['method', 'success']);
    requireColumns(measured!, ['method', 'toolTokens']);
    const byMethod = new Map(measured!.rows.map((r) => [toLabel(r.method), r]));
    const points = projected!.rows
      .map((r) => {
        const m = byMethod.get(toLabel(r.method));
        return {
          method: toLabel(r.method),
          success: toNumber(r.success),
          tokens: m && toNumber(m.toolTokens),
          // Tooltip figures as the tables print them.
          successText: cellText(projected!, 'success', r.success),
          tokensText: m ? cellText(measured!, 'toolTokens', m.toolTokens) : null,
        };
      })
      .filter(
        (p): p is { method: string; success: number; tokens: number; successText: string; tokensText: string } =>
          p.success !== undefined && p.tokens !== undefined && p.tokens > 0,
      );
    if (points.length === 0)
      throw new ChartSkip(`no method of ${projected!.id} has measured tool tokens in ${measured!.id} (rows are joined on method)`);
    // Pareto front: by tokens ascending, keep each point that beats every cheaper one on success.
    let bestSoFar = -Infinity;
    const front = [...points]
      .sort((a, b) => a.tokens - b.tokens || b.success - a.success)
      .filter((p) => (p.success > bestSoFar ? ((bestSoFar = p.success), true) : false));
    const onFront = new Set(front.map((p) => p.method));
    const sides = placeLabels(plotPixels(points), { width: CHART_WIDTH - Y_AXIS_WIDTH, height: CHART_HEIGHT }, LABEL_FONT_SIZE);
    const values = points.map((p, i) => ({
      ...p,
      front: onFront.has(p.method) ? 'on the Pareto front' : 'dominated',
      labelSide: sides[i]!,
    }));
    const successTitle = withProjectedMark(axisTitle(projected!, 'success'));
    return {
      $schema: SCHEMA,
      title: chartTitle('Success † vs tool tokens per turn', [
        'success is PROJECTED (†): a parameterised model',
        'tool tokens are measured; line: the Pareto front',
      ]),
      width: CHART_WIDTH,
      autosize: AUTOSIZE,
      height: CHART_HEIGHT,
      config: CHART_CONFIG,
      encoding: {
        x: {
          field: 'tokens',
          type: 'quantitative',
          scale: { type: 'log', nice: false, padding: X_PADDING },
          title: `${axisTitle(measured!, 'toolTokens')} (measured, log scale)`,
          axis: { format: ',.0f' },
        },
        y: { field: 'success', type: 'quantitative', title: successTitle, scale: { zero: false, nice: true, padding: Y_PADDING } },
      },
      layer: [
        { data: { values: front }, mark: { type: 'line', color: SOURCE_COLORS.projected, strokeDash: [4, 3] } },
        {
          data: { values },
          mark: { type: 'point', filled: true, size: 90 },
          encoding: {
            color: {
              field: 'front',
              type: 'nominal',
              title: null,
              scale: { domain: ['on the Pareto front', 'dominated'], range: [SOURCE_COLORS.projected, '#888'] },
            },
            tooltip: [
              { field: 'method' },
              { field: 'tokensText', title: `${axisTitle(measured!, 'toolTokens')} (measured)` },
              { field: 'successText', title: successTitle },
            ],
          },
        },
        // One text layer per label side, so no name covers another point or name.
        ...LABEL_SIDES.filter((side) => sides.includes(side)).map((side) => ({
          data: { values },
          transform: [{ filter: `datum.labelSide === '${side}'` }],
          mark: { type: 'text' as const, ...LABEL_MARK[side], fontSize: LABEL_FONT_SIZE },
          encoding: { text: { field: 'method' }, color: { value: '#333' } },
        })),
      ],
    };
  },
};

const LABEL_FONT_SIZE = 10;
/** Room the y axis (labels and title) takes from CHART_WIDTH, roughly. */
const Y_AXIS_WIDTH = 70;
/** The scales' padding in pixels: room for a label beside a point at the plot's edge. */
const X_PADDING = 24;
const Y_PADDING = 16;

/**
 * Each point's approximate pixel position in the plot: x on the log scale with its padding,
 * y on a domain widened to round steps as Vega's "nice" does. An estimate for label placement only.
 */
function plotPixels(points: readonly { method: string; success: number; tokens: number }[]): PlacedPoint[] {
  const width = CHART_WIDTH - Y_AXIS_WIDTH - 2 * X_PADDING;
  const logs = points.map((p) => Math.log(p.tokens));
  const [lx0, lx1] = [Math.min(...logs), Math.max(...logs)];
  const ys = points.map((p) => p.success);
  const step = 10 ** Math.floor(Math.log10(Math.max(Math.max(...ys) - Math.min(...ys), 1e-9)));
  const [y0, y1] = [Math.floor(Math.min(...ys) / step) * step, Math.ceil(Math.max(...ys) / step) * step];
  return points.map((p, i) => ({
    x: X_PADDING + (lx1 > lx0 ? ((logs[i]! - lx0) / (lx1 - lx0)) * width : width / 2),
    y: Y_PADDING + (y1 > y0 ? ((y1 - p.success) / (y1 - y0)) * (CHART_HEIGHT - 2 * Y_PADDING) : CHART_HEIGHT / 2 - Y_PADDING),
    label: p.method,
  }));
}
