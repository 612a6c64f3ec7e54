import type { TurnRecord } from '../measure/run-pipeline.ts';
import { PROJECTION_PARAMS, valuesOf, type ProjectionParams } from '../sim/projection/params.ts';
import { callCostUsd, type ModelPrice } from './prices.ts';

export interface CostEstimate {
  tasks: number;
  modelCallsPerTask: number;
  inputTokensPerTask: number;
  outputTokensPerTask: number;
  usdPer100Tasks: number;
}

/**
 * What running these measured turns live would cost at a model's list price, before sending
 * anything: every model call re-sends the turn's measured prompt (1 call per turn, 1 more per
 * needed tool and per discovery call, as the projection counts them), no prompt-cache discount
 * (an upper bound), output tokens per the projection's output parameters. Computed from the
 * measured prompts; our tokenizer's count, which the live-tokens table compares with the
 * provider's.
 */
export function estimateLiveCost(
  records: readonly TurnRecord[],
  price: ModelPrice,
  params: ProjectionParams = PROJECTION_PARAMS,
): CostEstimate {
  const v = valuesOf(params);
  const tasks = new Set(records.map((r) => `${r.seed}\u0000${r.taskId}`)).size;
  let calls = 0;
  let input = 0;
  let output = 0;
  for (const r of records) {
    const n = 1 + r.needed + r.discoveryCalls;
    calls += n;
    input += n * r.promptTokens;
    output += v['output.replyTokens'] + r.needed * v['output.toolCallTokens'] + r.discoveryCalls * v['output.discoveryCallTokens'];
  }
  const per = (x: number) => (tasks ? x / tasks : NaN);
  return {
    tasks,
    modelCallsPerTask: per(calls),
    inputTokensPerTask: per(input),
    outputTokensPerTask: per(output),
    usdPer100Tasks: tasks ? (100 * callCostUsd(price, input, 0, output)) / tasks : NaN,
  };
}
