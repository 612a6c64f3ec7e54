import type { ChartDef } from './chart.ts';
import { axisTitle, cellText, requireColumns, toLabel, toNumber } from './columns.ts';
import { AUTOSIZE, CHART_CONFIG, CHART_HEIGHT, CHART_WIDTH, chartTitle, SCHEMA, SOURCE_COLORS } from './spec-base.ts';

/**
 * Tool tokens per turn by method, from `table3-measured` (columns method, toolTokens; the
 * published figure, `pubTokens` such as "47,312 ± 210", is drawn beside it when present).
 */
/** "B2 Static Pruning" → ["B2", "Static Pruning"]: the method code above its name. */
const TWO_LINES =
  "indexof(datum.label, ' ') > 0 ? [split(datum.label, ' ')[0], join(slice(split(datum.label, ' '), 1), ' ')] : datum.label";

export const toolTokensChart: ChartDef = {
  id: 'tool-tokens-per-turn',
  title: 'Tool tokens per turn by method',
  sources: ['table3-measured'],
  build([[t]]) {
    requireColumns(t!, ['method', 'toolTokens']);
    const values = t!.rows.flatMap((r) => {
      const method = toLabel(r.method);
      const measured = toNumber(r.toolTokens);
      const published = toNumber(r.pubTokens);
      return [
        ...(measured === undefined
          ? []
          : [{ method, source: 'measured', tokens: measured, figure: cellText(t!, 'toolTokens', r.toolTokens) }]),
        ...(published === undefined
          ? []
          : [{ method, source: 'published', tokens: published, figure: cellText(t!, 'pubTokens', r.pubTokens) }]),
      ];
    });
    const methods = [...new Set(values.map((v) => v.method))];
    return {
      $schema: SCHEMA,
      title: chartTitle('Tool tokens per turn by method', "measured by this harness; published = the paper's Table 3"),
      width: CHART_WIDTH,
      autosize: AUTOSIZE,
      height: CHART_HEIGHT,
      config: CHART_CONFIG,
      data: { values },
      encoding: {
        x: { field: 'method', type: 'nominal', sort: methods, title: null, axis: { labelAngle: 0, labelLimit: 0, labelExpr: TWO_LINES } },
        xOffset: { field: 'source', type: 'nominal', sort: ['measured', 'published'] },
        y: { field: 'tokens', type: 'quantitative', title: axisTitle(t!, 'toolTokens'), axis: { format: ',.0f' } },
        color: {
          field: 'source',
          type: 'nominal',
          title: null,
          scale: { domain: ['measured', 'published'], range: [SOURCE_COLORS.measured, SOURCE_COLORS.published] },
        },
      },
      layer: [
        {
          mark: { type: 'bar' },
          encoding: {
            tooltip: [
              { field: 'method' },
              { field: 'source' },
              { field: 'figure', title: `${axisTitle(t!, 'toolTokens')} (table ${t!.id})` },
            ],
          },
        },
        {
          mark: { type: 'text', dy: -6, fontSize: 10, color: '#333' },
          encoding: { text: { field: 'tokens', format: ',.0f' }, color: { value: '#333' } },
        },
      ],
    };
  },
};
