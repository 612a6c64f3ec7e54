import { callCostUsd, type ModelPrice } from './prices.ts';

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

/**
 * The budget cap. Before each request, its worst case (every prompt token uncached at the
 * input price, plus max_tokens of output) is checked against what is left; a request that
 * could pass the cap is never sent. After it, the cost the provider's usage implies is added.
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

  /** Adds a finished call; returns its cost. */
  add(inputTokens: number, cachedInputTokens: number, outputTokens: number): number {
    const cost = callCostUsd(this.price, inputTokens, cachedInputTokens, outputTokens);
    this.spent += cost;
    return cost;
  }
}
