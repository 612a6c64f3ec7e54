import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Study } from '../../bench/studies.ts';
import type { CatalogTool } from '../../catalog/types.ts';
import type { Encoder } from '../../embed/types.ts';
import { sweepThreshold, type LabelledScore, type ThresholdPoint } from '../../embed/threshold.ts';
import type { Table } from '../../report/table.ts';
import { queryText } from '../../retrieval/texts.ts';
import type { Task } from '../../tasks/types.ts';
import { writeFileAtomic } from '../../util/files.ts';
import { isoScore } from './router.ts';

/** Sweep step (paper §5.2: increments of 0.01). */
export const CALIBRATION_STEP = 0.01;
/** The paper's θ and its typical optimum for MiniLM (§5.2, §6.4), printed beside ours. */
export const PUBLISHED_THETA = 0.28;
export const PUBLISHED_THETA_RANGE_MINILM: readonly [number, number] = [0.22, 0.32];

export interface CalibrationFile {
  encoder: string;
  encoderDescription: string;
  /** How the tool side was embedded. */
  toolText: string;
  /** Queries (calibration turns that need a tool) and (query, tool) pairs scored. */
  queries: number;
  pairs: number;
  positives: number;
  step: number;
  chosen: ThresholdPoint;
  points: ThresholdPoint[];
  published: { theta: number; minilmRange: readonly [number, number] };
}

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
): Promise<CalibrationFile> {
  const turns = calibrationTasks.flatMap((t) => t.turns).filter((turn) => turn.tools.length > 0);
  if (turns.length === 0) throw new Error('calibrateTheta: no calibration turn needs a tool');
  const queries = await encoder.embed(turns.map((turn) => queryText(turn.user)));
  const pairs: LabelledScore[] = [];
  turns.forEach((turn, i) => {
    const needed = new Set(turn.tools);
    for (const tool of tools) pairs.push({ score: isoScore(queries[i]!, toolVectors.get(tool.id)!), relevant: needed.has(tool.id) });
  });
  const sweep = sweepThreshold(pairs, CALIBRATION_STEP);
  return {
    encoder: encoder.name,
    encoderDescription: encoder.description,
    toolText,
    queries: turns.length,
    pairs: pairs.length,
    positives: pairs.filter((p) => p.relevant).length,
    step: sweep.step,
    chosen: sweep.best,
    points: sweep.points,
    published: { theta: PUBLISHED_THETA, minilmRange: PUBLISHED_THETA_RANGE_MINILM },
  };
}

export function calibrationPath(workDir: string, encoderName: string): string {
  return join(workDir, 'calibration', `threshold-${encoderName}.json`);
}

export function writeCalibration(workDir: string, calibration: CalibrationFile): string {
  const path = calibrationPath(workDir, calibration.encoder);
  writeFileAtomic(path, `${JSON.stringify(calibration, null, 1)}\n`);
  return path;
}

/**
 * The sweep as a report table: every 0.05 step, plus the chosen θ and the paper's 0.28 (the
 * file holds all points).
 */
export function calibrationTable(c: CalibrationFile): Table {
  const round = (x: number) => Math.round(x * 100);
  const keep = c.points.filter((p) => round(p.theta) % 5 === 0 || p.theta === c.chosen.theta || round(p.theta) === round(PUBLISHED_THETA));
  return {
    id: `threshold-calibration-${c.encoder}`,
    title: `θ calibration for Tool Attention (${c.encoder}): F1 sweep over held-out (query, tool) pairs`,
    columns: [
      { key: 'theta', header: 'θ', kind: 'parameter', digits: 2 },
      { key: 'mark', header: '', kind: 'label' },
      { key: 'selected', header: 'pairs ≥ θ', kind: 'measured' },
      { key: 'tp', header: 'TP', kind: 'measured' },
      { key: 'precision', header: 'precision', kind: 'measured', digits: 3 },
      { key: 'recall', header: 'recall', kind: 'measured', digits: 3 },
      { key: 'f1', header: 'F1', kind: 'measured', digits: 3 },
    ],
    rows: keep.map((p) => ({
      theta: p.theta,
      mark: [p.theta === c.chosen.theta ? 'chosen (max F1)' : '', round(p.theta) === round(PUBLISHED_THETA) ? 'paper θ (MiniLM)' : ''].filter(Boolean).join('; '),
      selected: p.tp + p.fp,
      tp: p.tp,
      precision: p.precision,
      recall: p.recall,
      f1: p.f1,
    })),
    notes: [
      `Encoder: ${c.encoderDescription}. Tool side: ${c.toolText}.`,
      `${c.queries} held-out calibration queries × catalog tools = ${c.pairs.toLocaleString('en-US')} pairs, ${c.positives} relevant (the turn's ground-truth tools); θ swept 0–1 in steps of ${c.step}; chosen θ = ${c.chosen.theta.toFixed(2)} (F1 ${c.chosen.f1.toFixed(3)}, precision ${c.chosen.precision.toFixed(3)}, recall ${c.chosen.recall.toFixed(3)}).`,
      `Published (paper §5.2, §6.4): θ = ${PUBLISHED_THETA} with all-MiniLM-L6-v2, typical optimum ${PUBLISHED_THETA_RANGE_MINILM[0]}–${PUBLISHED_THETA_RANGE_MINILM[1]} for MiniLM; other encoders score on other scales, so θ is not comparable across encoders.`,
      `Every point of the sweep: calibration/threshold-${c.encoder}.json in the results directory.`,
    ],
  };
}

/**
 * Renders the calibration files the Tool Attention pipelines of this run wrote (found through
 * their recorded settings), one table per encoder.
 */
export const thresholdCalibrationStudy: Study = {
  id: 'threshold-calibration',
  async run(ctx) {
    const files = new Set<string>();
    for (const s of ctx.summaries) {
      const cal = (s.settings as { calibration?: { file?: string } }).calibration;
      if (cal?.file && existsSync(cal.file)) files.add(cal.file);
    }
    return [...files].map((f) => calibrationTable(JSON.parse(readFileSync(f, 'utf8')) as CalibrationFile));
  },
};
