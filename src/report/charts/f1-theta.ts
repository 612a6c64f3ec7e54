import type { ChartDef } from './chart.ts';
import { ChartSkip } from './chart.ts';
import { axisTitle, cellText, hasColumns, toLabel, toNumber } from './columns.ts';
import { AUTOSIZE, CHART_CONFIG, CHART_HEIGHT, CHART_WIDTH, chartTitle, legendColumns, SCHEMA } from './spec-base.ts';

/**
 * F1 versus the gating threshold θ per encoder, with each encoder's best θ marked.
 *
 * Expected tables `threshold-sweep*` or `threshold-calibration*` (one per encoder, or one with an
 * encoder column), one row per θ:
 *   theta      parameter  0 … 1
 *   precision  measured   0 … 1 (tooltip)
 *   recall     measured   0 … 1 (tooltip)
 *   f1         measured   0 … 1
 *   encoder    label      optional; else the table id after "threshold-sweep-"/"threshold-calibration-" names it
 */
export const f1ThetaChart: ChartDef = {
  id: 'f1-vs-theta',
  title: 'F1 vs θ per encoder',
  sources: ['threshold-sweep*|threshold-calibration*'],
  build([tables]) {
    const usable = tables!.filter((t) => hasColumns(t, ['theta', 'f1']));
    if (usable.length === 0) throw new ChartSkip(`no ${tables!.map((t) => t.id).join(', ')} table has the columns theta and f1`);
    const values = usable.flatMap((t) =>
      t.rows
        .map((r) => ({
          encoder: toLabel(r.encoder) || t.id.replace(/^threshold-(sweep|calibration)-?/, '') || 'encoder',
          theta: toNumber(r.theta),
          f1: toNumber(r.f1),
          // Tooltip figures as the table prints them.
          thetaText: cellText(t, 'theta', r.theta),
          f1Text: cellText(t, 'f1', r.f1),
          precisionText: cellText(t, 'precision', r.precision),
          recallText: cellText(t, 'recall', r.recall),
        }))
        .filter((v) => v.theta !== undefined && v.f1 !== undefined),
    );
    const best = [...new Set(values.map((v) => v.encoder))].map((e) =>
      values.filter((v) => v.encoder === e).reduce((a, b) => (b.f1! > a.f1! ? b : a)),
    );
    const first = usable[0]!;
    // Each encoder's best θ goes into its legend entry, not beside its point: best points of
    // different encoders often sit a few pixels apart, where their labels would collide.
    const legendLabel = (b: (typeof best)[number]) => `${b.encoder}: best θ ${b.theta!.toFixed(2)}`;
    const bestTheta = best.map((b) => `datum.label === ${JSON.stringify(b.encoder)} ? ${JSON.stringify(legendLabel(b))} : `);
    return {
      $schema: SCHEMA,
      title: chartTitle('F1 vs θ per encoder', 'θ sweep on labelled (query, tool) pairs; ● = best F1 of each encoder, its θ in the legend'),
      width: CHART_WIDTH,
      autosize: AUTOSIZE,
      height: CHART_HEIGHT,
      config: CHART_CONFIG,
      encoding: {
        x: { field: 'theta', type: 'quantitative', title: axisTitle(first, 'theta'), scale: { domain: [0, 1] } },
        y: { field: 'f1', type: 'quantitative', title: axisTitle(first, 'f1'), scale: { zero: true, nice: true } },
        color: {
          field: 'encoder',
          type: 'nominal',
          title: 'encoder',
          legend: { labelExpr: `${bestTheta.join('')}datum.label`, columns: legendColumns(best.map(legendLabel)) },
        },
      },
      layer: [
        {
          data: { values },
          mark: { type: 'line', strokeWidth: 2 },
        },
        // Tooltips on every θ (a line's tooltip would show its first point only).
        {
          data: { values },
          mark: { type: 'point', filled: true, size: 40, opacity: 0 },
          encoding: {
            tooltip: [
              { field: 'encoder' },
              { field: 'thetaText', title: axisTitle(first, 'theta') },
              { field: 'f1Text', title: axisTitle(first, 'f1') },
              { field: 'precisionText', title: axisTitle(first, 'precision') },
              { field: 'recallText', title: axisTitle(first, 'recall') },
            ],
          },
        },
        { data: { values: best }, mark: { type: 'point', filled: true, size: 70 } },
      ],
    };
  },
};
