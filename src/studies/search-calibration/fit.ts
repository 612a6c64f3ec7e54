import { PROJECTION_PARAMS, withParam, type ProjectionParams } from '../../sim/projection/params.ts';
import { PUBLISHED_FIGURES, type PublishedFigure } from './figures.ts';
import { CalibrationHarness, type HarnessInputs } from './harness.ts';

/** The grid search.knowledge is fitted on. */
const KNOWLEDGE_GRID: readonly number[] = Array.from({ length: 21 }, (_, i) => i / 20);

/** The calibration figures search.knowledge moves (the selection anchors are solved, not searched). */
export const KNOWLEDGE_FIGURES: readonly PublishedFigure[] = PUBLISHED_FIGURES.filter(
  (f) => f.part === 'calibration' && (f.harness === 'arcadeBm25' || f.harness === 'lmbFirstSearch'),
);

export interface KnowledgeFit {
  value: number;
  /** Sum of squared differences (percentage points²) at each grid point. */
  sse: { q: number; sse: number }[];
}

/**
 * Fits search.knowledge: the grid point with the least sum of squared differences between the
 * harness and KNOWLEDGE_FIGURES (ties: the smaller value). Only the calibration figures are read.
 */
export async function fitKnowledge(inputs: HarnessInputs, base: ProjectionParams = PROJECTION_PARAMS): Promise<KnowledgeFit> {
  const sse: KnowledgeFit['sse'] = [];
  for (const q of KNOWLEDGE_GRID) {
    const harness = new CalibrationHarness(inputs, withParam(base, 'search.knowledge', q));
    let sum = 0;
    for (const f of KNOWLEDGE_FIGURES) {
      const h = await harness.figure(f.harness!);
      if ('missing' in h) return { value: base['search.knowledge'].value, sse: [] };
      sum += (h.value - f.value) ** 2;
    }
    sse.push({ q, sse: sum });
  }
  const best = sse.reduce((a, b) => (b.sse < a.sse ? b : a));
  return { value: best.q, sse };
}
