import { join } from 'node:path';
import type { CatalogTool } from '../../catalog/types.ts';
import type { Encoder } from '../../embed/types.ts';
import { ThresholdHistogram } from '../../embed/threshold.ts';
import type { ThresholdCalibration } from '../../results/pipeline-settings.ts';
import { queryText } from '../../retrieval/texts.ts';
import type { Task } from '../../tasks/types.ts';
import { writeFileAtomic } from '../../util/files.ts';
import { cosineScores } from '../../embed/vector.ts';

/** Sweep step (paper §5.2: increments of 0.01). */
export const CALIBRATION_STEP = 0.01;
/** The paper's θ and its typical optimum for MiniLM (§5.2, §6.4), printed beside ours. */
export const PUBLISHED_THETA = 0.28;
export const PUBLISHED_THETA_RANGE_MINILM: readonly [number, number] = [0.22, 0.32];

/**
 * θ calibration (paper §5.2): score every (query, tool) pair of the held-out calibration turns
 * by ISO (a pair is relevant when the tool is among the turn's ground-truth tools, every other
 * catalog tool is a negative), sweep θ from 0 to 1 in steps of 0.01 and keep the θ of highest
 * F1 (the lowest such θ on ties). Calibration turns never come from the evaluated tasks.
 */
export async function calibrateTheta(
  encoder: Encoder,
  tools: readonly CatalogTool[],
  toolVectors: ReadonlyMap<string, Float32Array>,
  calibrationTasks: readonly Task[],
  toolText: string,
): Promise<ThresholdCalibration> {
  const turns = calibrationTasks.flatMap((t) => t.turns).filter((turn) => turn.tools.length > 0);
  if (turns.length === 0) throw new Error('calibrateTheta: no calibration turn needs a tool');
  const queries = await encoder.embed(turns.map((turn) => queryText(turn.user)));
  const pairs = new ThresholdHistogram(CALIBRATION_STEP);
  const vectors = tools.map((tool) => toolVectors.get(tool.id)!);
  turns.forEach((turn, i) => {
    const needed = new Set(turn.tools);
    // The ISO score (router.ts) of every tool; cosineScores skips a sparse query's zeros, bit for bit.
    const scores = cosineScores(queries[i]!, vectors);
    tools.forEach((tool, j) => pairs.add(scores[j]!, needed.has(tool.id)));
  });
  const sweep = pairs.sweep();
  return {
    encoder: encoder.name,
    encoderDescription: encoder.description,
    toolText,
    queries: turns.length,
    pairs: pairs.pairs,
    positives: pairs.positives,
    step: sweep.step,
    chosen: sweep.best,
    points: sweep.points,
    published: { theta: PUBLISHED_THETA, minilmRange: PUBLISHED_THETA_RANGE_MINILM },
  };
}

export function calibrationPath(workDir: string, encoderName: string): string {
  return join(workDir, 'calibration', `threshold-${encoderName}.json`);
}

export function writeCalibration(workDir: string, calibration: ThresholdCalibration): string {
  const path = calibrationPath(workDir, calibration.encoder);
  writeFileAtomic(path, `${JSON.stringify(calibration, null, 1)}\n`);
  return path;
}
