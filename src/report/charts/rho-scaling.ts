import type { ChartDef } from './chart.ts';
import { axisTitle, cellText, firstKey, hasColumns, requireColumns, toLabel, toNumber } from './columns.ts';
import { AUTOSIZE, CHART_CONFIG, CHART_HEIGHT, CHART_WIDTH, chartTitle, legendColumns, SCHEMA } from './spec-base.ts';
import { ownValue } from '../../util/json.ts';

/** Below this rho the paper sees a reasoning cliff ("fracture"). */
const RHO_FRACTURE = 0.3;

/**
 * rho versus catalog size N per method, with the fracture line at rho = 0.3.
 *
 * Expected table `scaling` (written by the scaling study), one row per method × catalog size:
 *   method      label                  e.g. "B1 Full-Schema"
 *   N (or n)    parameter              tools in the catalog (1 … 1,000+; drawn on a log axis)
 *   rho         measured | projected   rho at the measurement turn, 0 … 1 (a projected column gets † on the axis)
 *   toolTokens  measured               tool tokens per turn (optional; shown in the tooltip)
 */
export const rhoScalingChart: ChartDef = {
  id: 'rho-vs-catalog-size',
  title: 'rho vs catalog size N',
  sources: ['scaling'],
  build([[t]]) {
    requireColumns(t!, ['method', 'rho']);
    const nKey = firstKey(t!, ['N', 'n']);
    const withTokens = hasColumns(t!, ['toolTokens']);
    const values = t!.rows
      .map((r) => ({
        method: toLabel(r.method),
        N: toNumber(ownValue(r, nKey)),
        rho: toNumber(r.rho),
        rhoText: cellText(t!, 'rho', r.rho),
        tokensText: cellText(t!, 'toolTokens', r.toolTokens),
      }))
      .filter((v) => v.N !== undefined && v.N > 0 && v.rho !== undefined);
    return {
      $schema: SCHEMA,
      title: chartTitle('rho vs catalog size N', `the fracture line: below rho = ${RHO_FRACTURE} the paper reports a reasoning cliff`),
      width: CHART_WIDTH,
      autosize: AUTOSIZE,
      height: CHART_HEIGHT,
      config: CHART_CONFIG,
      layer: [
        {
          data: { values },
          mark: { type: 'line', point: true },
          encoding: {
            x: {
              field: 'N',
              type: 'quantitative',
              scale: { type: 'log', nice: false, padding: 16 },
              title: `${axisTitle(t!, nKey)} (log scale)`,
              axis: { format: ',.0f' },
            },
            y: { field: 'rho', type: 'quantitative', scale: { domain: [0, 1] }, title: axisTitle(t!, 'rho') },
            color: {
              field: 'method',
              type: 'nominal',
              title: null,
              legend: { columns: legendColumns([...new Set(values.map((v) => v.method))]) },
            },
          },
        },
        {
          data: { values: [{ rho: RHO_FRACTURE }] },
          mark: { type: 'rule', color: '#c0392b', strokeDash: [6, 4], strokeWidth: 1.5 },
          encoding: { y: { field: 'rho', type: 'quantitative' } },
        },
        {
          data: { values: [{ rho: RHO_FRACTURE, label: `fracture rho = ${RHO_FRACTURE}` }] },
          // At the right end, where the lines have long left rho = 0.3 behind (mid-plot they cross it).
          mark: { type: 'text', color: '#c0392b', align: 'right', baseline: 'bottom', dy: -3, x: { expr: 'width - 4' }, fontSize: 11 },
          encoding: { y: { field: 'rho', type: 'quantitative' }, text: { field: 'label' } },
        },
        // Tooltips on the points (a line's tooltip would show its first point only), drawn over the lines.
        {
          data: { values },
          mark: { type: 'point', filled: true, size: 40, opacity: 0 },
          encoding: {
            x: { field: 'N', type: 'quantitative' },
            y: { field: 'rho', type: 'quantitative' },
            tooltip: [
              { field: 'method' },
              { field: 'N', format: ',.0f', title: axisTitle(t!, nKey) },
              { field: 'rhoText', title: axisTitle(t!, 'rho') },
              ...(withTokens ? [{ field: 'tokensText', title: axisTitle(t!, 'toolTokens') }] : []),
            ],
          },
        },
      ],
    };
  },
};
