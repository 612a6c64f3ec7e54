import { ThresholdHistogram } from '../../embed/threshold.ts';
import type { ThresholdCalibration } from '../../results/pipeline-settings.ts';
import { describeQueryMode, turnQuery, type QueryMode } from '../../retrieval/query.ts';
import { thetaScale } from '../../retrieval/task-rankings.ts';
import type { FittedRetriever, Retriever } from '../../retrieval/types.ts';
import type { Task } from '../../tasks/types.ts';
import { CALIBRATION_STEP, PUBLISHED_THETA, PUBLISHED_THETA_RANGE_MINILM } from './calibration.ts';

export type ThetaPolicy = { kind: 'f1' } | { kind: 'coverage'; target: number };

/** The coverage policy's target: every needed schema promoted on 90% of held-out turns (before the top-k cut). */
export const COVERAGE_TARGET = 0.9;

export const SCALE_NOTES = {
  cosine: 'cosine as is',
  probability: 'probability as is',
  unbounded: "divided by the query's best score (best = 1)",
} as const;

/**
 * θ calibration on any retriever's scores: every (calibration turn, tool) pair scored by the
 * retriever and put on the θ scale (thetaScale, as Tool Attention routes), swept from 0 to 1 in steps of 0.01.
 * `f1` keeps the θ of highest F1 (the paper's rule); `coverage` keeps the highest θ at which at
 * least `target` of the turns have every needed tool scoring ≥ θ, trading tokens for recall.
 */
export async function calibrateRetrieverTheta(
  retriever: Retriever,
  fitted: FittedRetriever,
  calibrationTasks: readonly Task[],
  mode: QueryMode,
  policy: ThetaPolicy,
): Promise<ThresholdCalibration> {
  const pairs = new ThresholdHistogram(CALIBRATION_STEP);
  const worstNeeded: number[] = [];
  for (const task of calibrationTasks) {
    // Scores in catalog order (no ranking needed: the sweep counts pairs), on the θ scale.
    const scores = await fitted.score(task.turns.map((_, i) => turnQuery(task.turns, i, mode)));
    task.turns.forEach((turn, i) => {
      if (!turn.tools.length) return;
      const needed = new Set(turn.tools);
      const raw = scores[i]!;
      let best = 0;
      for (const x of raw) best = Math.max(best, x);
      const toTheta = thetaScale(retriever.scale, best);
      let worst = Infinity;
      fitted.ids.forEach((id, j) => {
        const score = toTheta(raw[j]!);
        const relevant = needed.has(id);
        pairs.add(score, relevant);
        if (relevant) worst = Math.min(worst, score);
      });
      worstNeeded.push(worst);
    });
  }
  if (worstNeeded.length === 0) throw new Error('calibrateRetrieverTheta: no calibration turn needs a tool');
  const sweep = pairs.sweep();
  const coverage = sweep.points.map((p) => worstNeeded.filter((s) => s >= p.theta).length / worstNeeded.length);
  let chosen = sweep.best;
  if (policy.kind === 'coverage') {
    for (let i = sweep.points.length - 1; i >= 0; i--)
      if (coverage[i]! >= policy.target) {
        chosen = sweep.points[i]!;
        break;
      }
  }
  return {
    // The name keys the sweep file and table: a coverage calibration is kept apart from an F1 one.
    encoder: `${retriever.name.replace(/[^\w.-]+/g, '-')}${policy.kind === 'coverage' ? '-coverage' : ''}`,
    encoderDescription: retriever.description,
    toolText: `${retriever.toolText}; query: ${describeQueryMode(mode)}`,
    queries: worstNeeded.length,
    pairs: pairs.pairs,
    positives: pairs.positives,
    step: sweep.step,
    chosen,
    points: sweep.points,
    policy,
    coverage,
    scoreScale: SCALE_NOTES[retriever.scale],
    published: { theta: PUBLISHED_THETA, minilmRange: PUBLISHED_THETA_RANGE_MINILM },
  };
}
