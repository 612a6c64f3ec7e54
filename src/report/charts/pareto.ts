import type { ChartDef } from './chart.ts';
import { ChartSkip } from './chart.ts';
import { axisTitle, cellText, requireColumns, toLabel, toNumber, withProjectedMark } from './columns.ts';
import { LABEL_MARK, LABEL_SIDES, leaderEnd, placeLabels, type PlacedPoint } from './label-placement.ts';
import { baselineOf } from '../../results/manifest.ts';
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
  build([[projected], [measured]], info) {
    requireColumns(projected!, ['method', 'success']);
    requireColumns(measured!, ['method', 'toolTokens']);
    const byMethod = new Map(measured!.rows.map((r) => [toLabel(r.method), r]));
    const points = projected!.rows
      .map((r) => {
        const m = byMethod.get(toLabel(r.method));
        return {
          method: toLabel(r.method),
          pipeline: r.pipeline,
          success: toNumber(r.success),
          tokens: m && toNumber(m.toolTokens),
          // Tooltip figures as the tables print them.
          successText: cellText(projected!, 'success', r.success),
          tokensText: m ? cellText(measured!, 'toolTokens', m.toolTokens) : null,
        };
      })
      .filter(
        (p): p is typeof p & { success: number; tokens: number } => p.success !== undefined && p.tokens !== undefined && p.tokens > 0,
      );
    if (points.length === 0)
      throw new ChartSkip(`no method of ${projected!.id} has measured tool tokens in ${measured!.id} (rows are joined on method)`);
    // Pareto front: by tokens ascending, keep each point that beats every cheaper one on success.
    let bestSoFar = -Infinity;
    const front = [...points]
      .sort((a, b) => a.tokens - b.tokens || b.success - a.success)
      .filter((p) => (p.success > bestSoFar ? ((bestSoFar = p.success), true) : false));
    const onFront = new Set(front.map((p) => p.method));
    const { x: xDomain, y: yDomain } = domains(points);
    // Names go first to the Pareto front (the chart's answer), then the baseline, then the rest in table order.
    const baseline = baselineOf(info)?.id;
    const rank = (p: (typeof points)[number]) => (onFront.has(p.method) ? 0 : baseline !== undefined && p.pipeline === baseline ? 1 : 2);
    const order = points
      .map((p, i) => ({ i, r: rank(p) }))
      .sort((a, b) => a.r - b.r || a.i - b.i)
      .map((x) => x.i);
    const sides = placeLabels(plotPixels(points, xDomain, yDomain), { width: PLOT_WIDTH, height: CHART_HEIGHT }, LABEL_FONT_SIZE, order);
    const values = points.map((p, i) => ({
      ...p,
      front: onFront.has(p.method) ? 'on the Pareto front' : 'dominated',
      labelSide: sides[i] ?? 'none',
    }));
    const unlabelled = points.filter((_, i) => sides[i] === null).map((p) => p.method);
    const successTitle = withProjectedMark(axisTitle(projected!, 'success'));
    return {
      $schema: SCHEMA,
      title: chartTitle('Success † vs tool tokens per turn', [
        'success is PROJECTED (†): a parameterised model',
        'tool tokens are measured; line: the Pareto front',
        ...wrapWords(unlabelled.length ? `not named for lack of room (hover a point): ${unlabelled.join(', ')}` : '', SUBTITLE_CHARS),
      ]),
      width: CHART_WIDTH,
      autosize: AUTOSIZE,
      height: CHART_HEIGHT,
      config: CHART_CONFIG,
      encoding: {
        x: {
          field: 'tokens',
          type: 'quantitative',
          scale: { type: 'log', domain: xDomain, nice: false },
          title: `${axisTitle(measured!, 'toolTokens')} (measured, log scale)`,
          axis: { format: ',.0f', labelFlush: true },
        },
        y: {
          field: 'success',
          type: 'quantitative',
          title: successTitle,
          scale: { domain: yDomain, nice: false, zero: false },
          axis: { minExtent: Y_AXIS_EXTENT, maxExtent: Y_AXIS_EXTENT },
        },
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
        // One text layer per label side, so no name covers another point or name; a far name's leader line.
        ...LABEL_SIDES.filter((side) => sides.includes(side)).flatMap((side) => {
          const leader = leaderEnd(side);
          const only = { data: { values }, transform: [{ filter: `datum.labelSide === '${side}'` }] };
          return [
            ...(leader
              ? [
                  {
                    ...only,
                    mark: { type: 'rule' as const, color: '#999', strokeWidth: 0.8, x2Offset: leader.dx, y2Offset: leader.dy },
                    encoding: { x2: { field: 'tokens' }, y2: { field: 'success' } },
                  },
                ]
              : []),
            {
              ...only,
              mark: { type: 'text' as const, ...LABEL_MARK[side], fontSize: LABEL_FONT_SIZE },
              encoding: { text: { field: 'method' }, color: { value: '#333' } },
            },
          ];
        }),
      ],
    };
  },
};

const LABEL_FONT_SIZE = 10;
/** The y axis's ticks and labels take exactly this many pixels, so the plot's place is known. */
const Y_AXIS_EXTENT = 30;
/** The plot's width: CHART_WIDTH less the y axis (extent, title) and the padding, as Vega lays it out. */
const PLOT_WIDTH = CHART_WIDTH - 57;
/** Longest subtitle line, in characters. */
const SUBTITLE_CHARS = 70;

type Point = { method: string; success: number; tokens: number };

/**
 * The axes' domains, fixed here (no "nice" rounding by Vega) so that a point's pixel is known for
 * placing its name: a margin of a third of the way to the next power of ten on the log x axis,
 * whole tens around the success figures on the y axis.
 */
function domains(points: readonly Point[]): { x: [number, number]; y: [number, number] } {
  const tokens = points.map((p) => p.tokens);
  const success = points.map((p) => p.success);
  const lo = Math.max(0, Math.floor((Math.min(...success) - 3) / 10) * 10);
  const hi = Math.min(100, Math.ceil((Math.max(...success) + 3) / 10) * 10);
  return { x: [Math.min(...tokens) / 1.5, Math.max(...tokens) * 1.5], y: hi > lo ? [lo, hi] : [lo - 10, hi + 10] };
}

/** Each point's pixel position in the plot, on the domains the chart fixes. */
function plotPixels(points: readonly Point[], x: [number, number], y: [number, number]): PlacedPoint[] {
  const [lx0, lx1] = [Math.log(x[0]), Math.log(x[1])];
  return points.map((p) => ({
    x: ((Math.log(p.tokens) - lx0) / (lx1 - lx0)) * PLOT_WIDTH,
    y: ((y[1] - p.success) / (y[1] - y[0])) * CHART_HEIGHT,
    label: p.method,
  }));
}

/** A text as lines of at most `width` characters, broken between words; no line for ''. */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ').filter(Boolean)) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last]!.length + 1 + word.length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines;
}
