import { callCostUsd, type ModelPrice } from './prices.ts';
import type { LiveUsage } from './types.ts';
import { implausibleUsage, type OwnCount } from './usage.ts';

/**
 * Our tokenizer counts the text we send; providers add their own tool-format tokens and may
 * tokenize differently. The worst case is taken on 1.25× our count (the live-tokens table
 * shows the actual ratio).
 */
const PROMPT_MARGIN = 1.25;

export class BudgetExceededError extends Error {
  constructor(
    readonly spentUsd: number,
    readonly nextUsd: number,
    readonly maxUsd: number,
  ) {
    super(
      `budget cap: the next request could cost up to $${nextUsd.toFixed(4)}; with $${spentUsd.toFixed(4)} spent that would pass --max-usd ${maxUsd}; stopped before sending it`,
    );
    this.name = 'BudgetExceededError';
  }
}

/** What one call was charged, and on whose count. */
export interface ChargedUsage extends LiveUsage {
  /** `provider`: the usage the response reported; `own count`: ours, as that usage was missing or implausible. */
  source: 'provider' | 'own count';
  /** Why the provider's usage was not used. */
  reason?: string;
  costUsd: number;
}

/**
 * The budget cap. Before each request, its worst case (every prompt token uncached at the
 * input price, plus max_tokens of output) is checked against what is left; a request that
 * could pass the cap is never sent. After it, the cost the provider's usage implies is added,
 * or, when that usage is missing or implausible (src/live/usage.ts), the cost of our own count
 * with the same margin as the check: the cap holds whatever the endpoint reports.
 */
export class BudgetGuard {
  private spent = 0;

  constructor(
    readonly price: ModelPrice,
    readonly maxUsd: number,
  ) {}

  get spentUsd(): number {
    return this.spent;
  }

  /** Throws BudgetExceededError when a request of this many prompt tokens could pass the cap. */
  check(promptTokens: number, maxOutputTokens: number): void {
    const worst = callCostUsd(this.price, Math.ceil(promptTokens * PROMPT_MARGIN), 0, maxOutputTokens);
    if (this.spent + worst > this.maxUsd) throw new BudgetExceededError(this.spent, worst, this.maxUsd);
  }

  /** Adds a finished call, on the provider's usage when it is plausible, else on ours. */
  charge(reported: LiveUsage | null, own: OwnCount): ChargedUsage {
    const reason = implausibleUsage(reported, own);
    const usage: LiveUsage =
      reason === undefined
        ? reported!
        : {
            inputTokens: Math.ceil(own.inputTokens * PROMPT_MARGIN),
            outputTokens: Math.ceil(own.outputTokens * PROMPT_MARGIN),
            cachedInputTokens: 0,
          };
    const costUsd = callCostUsd(this.price, usage.inputTokens, usage.cachedInputTokens, usage.outputTokens);
    this.spent += costUsd;
    return reason === undefined ? { ...usage, source: 'provider', costUsd } : { ...usage, source: 'own count', reason, costUsd };
  }
}
