import { Rng } from '../util/rng.ts';
import { countTokens, type TokenizerName } from '../tokens/counter.ts';
import { buildDefinition } from './build-definition.ts';
import type { ServerSpec } from './spec.ts';
import { serializeToolDefinition, type McpTool } from './types.ts';
import { PUBLISHED_TOTAL } from '../reference/published.ts';

/**
 * The published testbed (Table 2 of the Tool Attention paper): per-server means, and a total
 * of ≈47,300 tokens. The per-server means sum to 48,600, not 47,300: the paper does not say
 * how the two reconcile. We calibrate every server by one common factor chosen in the middle
 * of the interval that keeps each server within ±3% of its target and the total within ±2% of
 * 47,300, and report both comparisons.
 */
export const SERVER_TOLERANCE = 0.03;
const TOTAL_TOLERANCE = 0.02;

export function commonCalibrationFactor(specs: readonly ServerSpec[]): number {
  const perServerSum = specs.reduce((s, x) => s + x.targetToolCount * x.targetTokensPerTool, 0);
  const low = Math.max(1 - SERVER_TOLERANCE, (PUBLISHED_TOTAL.totalTokens * (1 - TOTAL_TOLERANCE)) / perServerSum);
  const high = Math.min(1 + SERVER_TOLERANCE, (PUBLISHED_TOTAL.totalTokens * (1 + TOTAL_TOLERANCE)) / perServerSum);
  if (low > high) throw new Error(`calibration targets cannot all be met (factor interval ${low.toFixed(4)}..${high.toFixed(4)})`);
  return (low + high) / 2;
}

export interface CalibratedServer {
  definitions: McpTool[];
  tokensPerTool: number[];
  notesPerTool: number[];
  targetMean: number;
}

/**
 * Append realistic notes to tool descriptions until the server's mean tokens per tool
 * reaches `targetMean`: each round adds one note to the tool that has the fewest so far
 * (seeded tie order), its own notes first, then server-wide notes in a seeded order. The
 * last note is kept only if it brings the mean closer to the target.
 */
export function calibrateServer(
  spec: ServerSpec,
  targetMean: number,
  seed: number,
  tokenizer: TokenizerName = 'cl100k_base',
): CalibratedServer {
  const rng = new Rng(seed, `calibrate:${spec.server}`);
  const pools = spec.tools.map((t) => [...t.notes, ...rng.shuffle(spec.notes)]);
  const chosen: string[][] = spec.tools.map(() => []);
  const order = rng.shuffle(spec.tools.map((_, i) => i));
  const measure = (i: number) => countTokens(serializeToolDefinition(buildDefinition(spec.tools[i]!, chosen[i]!)), tokenizer);
  const tokens = spec.tools.map((_, i) => measure(i));
  const targetTotal = targetMean * spec.tools.length;
  let total = tokens.reduce((a, b) => a + b, 0);
  if (total > targetTotal * (1 + SERVER_TOLERANCE / 3)) {
    throw new Error(
      `${spec.server}: base definitions already average ${(total / spec.tools.length).toFixed(0)} tokens, above the target ${targetMean.toFixed(0)}`,
    );
  }
  while (total < targetTotal) {
    const candidates = order.filter((i) => chosen[i]!.length < pools[i]!.length);
    if (candidates.length === 0) {
      throw new Error(
        `${spec.server}: ran out of notes at ${(total / spec.tools.length).toFixed(0)} tokens per tool (target ${targetMean.toFixed(0)})`,
      );
    }
    const i = candidates.reduce((best, c) => (chosen[c]!.length < chosen[best]!.length ? c : best));
    chosen[i]!.push(pools[i]![chosen[i]!.length]!);
    const before = tokens[i]!;
    tokens[i] = measure(i);
    total += tokens[i]! - before;
    if (total >= targetTotal && total - targetTotal > targetTotal - (total - tokens[i]! + before)) {
      chosen[i]!.pop(); // the previous state was closer to the target
      total += before - tokens[i]!;
      tokens[i] = before;
      break;
    }
  }
  return {
    definitions: spec.tools.map((t, i) => buildDefinition(t, chosen[i]!)),
    tokensPerTool: tokens,
    notesPerTool: chosen.map((c) => c.length),
    targetMean,
  };
}
