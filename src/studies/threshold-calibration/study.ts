import { PUBLISHED_THETA, PUBLISHED_THETA_RANGE_MINILM } from '../../pipelines/tool-attention/calibration.ts';
import type { ThresholdCalibration } from '../../results/pipeline-settings.ts';
import type { Table } from '../../table/table.ts';
import { defineStudy, type Study } from '../types.ts';

/**
 * The sweep as a report table: every 0.05 step, plus the chosen θ and the paper's 0.28 (the
 * file holds all points).
 */
export function calibrationTable(c: ThresholdCalibration): Table {
  const round = (x: number) => Math.round(x * 100);
  const keep = c.points.filter((p) => round(p.theta) % 5 === 0 || p.theta === c.chosen.theta || round(p.theta) === round(PUBLISHED_THETA));
  return {
    id: `threshold-calibration-${c.encoder}`,
    title: `θ calibration for Tool Attention (${c.encoder}): ${c.policy?.kind === 'coverage' ? 'coverage and F1' : 'F1'} sweep over held-out (query, tool) pairs`,
    columns: [
      { key: 'theta', header: 'θ', kind: 'parameter', digits: 2 },
      { key: 'mark', header: '', kind: 'label' },
      { key: 'selected', header: 'pairs ≥ θ', kind: 'measured' },
      { key: 'tp', header: 'TP', kind: 'measured' },
      { key: 'precision', header: 'precision', kind: 'measured', digits: 3 },
      { key: 'recall', header: 'recall', kind: 'measured', digits: 3 },
      { key: 'f1', header: 'F1', kind: 'measured', digits: 3 },
      ...(c.coverage ? [{ key: 'coverage', header: 'turns with every needed tool ≥ θ', kind: 'measured' as const, digits: 3 }] : []),
    ],
    rows: keep.map((p) => ({
      theta: p.theta,
      coverage: c.coverage?.[c.points.indexOf(p)],
      mark: [
        p.theta === c.chosen.theta ? (c.policy?.kind === 'coverage' ? `chosen (coverage ≥ ${c.policy.target})` : 'chosen (max F1)') : '',
        round(p.theta) === round(PUBLISHED_THETA) ? 'paper θ (MiniLM)' : '',
      ]
        .filter(Boolean)
        .join('; '),
      selected: p.tp + p.fp,
      tp: p.tp,
      precision: p.precision,
      recall: p.recall,
      f1: p.f1,
    })),
    notes: [
      `Encoder: ${c.encoderDescription}. Tool side: ${c.toolText}.${c.scoreScale ? ` Scores on the θ scale: ${c.scoreScale}.` : ''}`,
      `${c.queries} held-out calibration queries × catalog tools = ${c.pairs.toLocaleString('en-US')} pairs, ${c.positives} relevant (the turn's ground-truth tools); θ swept 0–1 in steps of ${c.step}; chosen θ = ${c.chosen.theta.toFixed(2)} (F1 ${c.chosen.f1.toFixed(3)}, precision ${c.chosen.precision.toFixed(3)}, recall ${c.chosen.recall.toFixed(3)}).`,
      `Published (paper §5.2, §6.4): θ = ${PUBLISHED_THETA} with all-MiniLM-L6-v2, typical optimum ${PUBLISHED_THETA_RANGE_MINILM[0]}–${PUBLISHED_THETA_RANGE_MINILM[1]} for MiniLM; other encoders score on other scales, so θ is not comparable across encoders.`,
      `Every point of the sweep: calibration/threshold-${c.encoder}.json in the results directory.`,
    ],
  };
}

/** The θ sweep of every pipeline of this run that calibrated θ (typed in its settings), one table per encoder. */
export const thresholdCalibrationStudy: Study = defineStudy(import.meta.url, {
  id: 'threshold-calibration',
  description: "Tool Attention's θ sweeps (coverage and F1) over held-out (query, tool) pairs",
  readsPipelineResults: true,
  needsTasks: true,
  async run(ctx) {
    const byEncoder = new Map<string, ThresholdCalibration>();
    for (const s of ctx.summaries) if (s.settings.calibration) byEncoder.set(s.settings.calibration.encoder, s.settings.calibration);
    return [...byEncoder.values()].map(calibrationTable);
  },
});
