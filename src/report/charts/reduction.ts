import type { ChartDef } from './chart.ts';
import { cellText, requireColumns, toLabel, toNumber } from './columns.ts';
import { AUTOSIZE, CHART_CONFIG, CHART_WIDTH, chartTitle, SCHEMA, SOURCE_COLORS, textWidthPx } from './spec-base.ts';
import { negativeDomainMin, valueLabelLayers } from './grouped-bars.ts';
import { ChartSkip } from './chart.ts';
import { baselineOf } from '../../results/manifest.ts';
import { ownValue } from '../../util/json.ts';

/**
 * Reduction in tool tokens per turn versus B1 Full-Schema, from `table3-measured` (method,
 * toolTokens; published `pubTokens` beside it when present). The baseline is the row of the
 * pipeline the run manifest marks `baseline` (joined on the pipeline id), else the first row.
 */
export const reductionChart: ChartDef = {
  id: 'reduction-vs-b1',
  title: 'Reduction in tool tokens per turn vs B1',
  sources: ['table3-measured'],
  build([[t]], info) {
    requireColumns(t!, ['method', 'toolTokens']);
    const baselineId = baselineOf(info)?.id;
    const base = t!.rows.find((r) => baselineId !== undefined && r.pipeline === baselineId) ?? t!.rows[0];
    if (!base) throw new ChartSkip(`table ${t!.id} has no rows`);
    const baseMeasured = toNumber(base.toolTokens);
    const basePublished = toNumber(base.pubTokens);
    const reduction = (x: number | undefined, b: number | undefined) => (x === undefined || !b ? undefined : 100 * (1 - x / b));
    const values = t!.rows
      .filter((r) => r !== base)
      .flatMap((r) => {
        const method = toLabel(r.method);
        const m = reduction(toNumber(r.toolTokens), baseMeasured);
        const p = reduction(toNumber(r.pubTokens), basePublished);
        // The two table figures each bar is computed from, as the table prints them.
        const from = (key: string, row: typeof r) => cellText(t!, key, ownValue(row, key));
        return [
          ...(m === undefined
            ? []
            : [{ method, source: 'measured', reduction: m, from: `${from('toolTokens', r)} vs ${from('toolTokens', base)}` }]),
          ...(p === undefined
            ? []
            : [{ method, source: 'published', reduction: p, from: `${from('pubTokens', r)} vs ${from('pubTokens', base)}` }]),
        ];
      });
    if (values.length === 0) throw new ChartSkip(`table ${t!.id} has no method besides the baseline ${toLabel(base.method)}`);
    const methods = [...new Set(values.map((v) => v.method))];
    // Only the sources drawn are in the legend: a run on another catalog than the testbed has no published figures.
    const sources = (['measured', 'published'] as const).filter((x) => values.some((v) => v.source === x));
    const plotPx = CHART_WIDTH - textWidthPx(methods, CHART_CONFIG.axis?.labelFontSize as number) - 20;
    const lo = negativeDomainMin(
      values.map((v) => v.reduction),
      100,
      plotPx,
      7,
    );
    return {
      $schema: SCHEMA,
      title: chartTitle(
        `Reduction in tool tokens per turn vs ${toLabel(base.method)}`,
        `100 × (1 − method / baseline)${sources.includes('published') ? "; published = the paper's Table 3" : ''}`,
      ),
      width: CHART_WIDTH,
      autosize: AUTOSIZE,
      height: methods.length * 44, // fixed, not a step: autosize fit-x needs a continuous height
      config: CHART_CONFIG,
      data: { values },
      encoding: {
        y: { field: 'method', type: 'nominal', sort: methods, title: null, axis: { labelLimit: 0 } },
        yOffset: { field: 'source', type: 'nominal', sort: sources },
        // A method that sends more than the baseline has a negative reduction: its bar grows left of zero, its label beyond it.
        x: {
          field: 'reduction',
          type: 'quantitative',
          title: `reduction vs ${toLabel(base.method)} (%)`,
          scale: lo === undefined ? { domainMax: 100 } : { domainMin: lo, domainMax: 100, nice: false },
        },
        color: {
          field: 'source',
          type: 'nominal',
          title: null,
          scale: { domain: sources, range: sources.map((x) => SOURCE_COLORS[x]) },
        },
      },
      layer: [
        {
          mark: 'bar',
          encoding: {
            tooltip: [
              { field: 'method' },
              { field: 'source' },
              { field: 'reduction', format: '.1f', title: 'reduction %' },
              { field: 'from', title: `tool tokens/turn vs ${toLabel(base.method)} (table ${t!.id})` },
            ],
          },
        },
        ...valueLabelLayers('reduction', '.1f', values),
      ],
    };
  },
};
