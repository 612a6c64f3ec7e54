import type { LiveUsage } from './types.ts';

/**
 * What a provider reports it billed for a call, and whether to believe it. The budget cap adds
 * the cost of each call; an endpoint that omits `usage`, or garbles it (a string, NaN, a
 * negative or implausibly small count), would otherwise add nothing and let the run spend past
 * `--max-usd`. Such a call is charged on our own count instead (src/live/budget.ts).
 */

/** Our tokenizer's count of what a call sent (the request) and received (text and tool calls). */
export interface OwnCount {
  inputTokens: number;
  outputTokens: number;
}

/**
 * A provider's count below this share of ours is implausible. Tokenizers differ by tens of
 * percent (the live-tokens table shows the ratio), not by half; and a provider adds its own
 * framing to what we count, so its count is rarely below ours at all.
 */
const LOWEST_PLAUSIBLE_SHARE = 0.5;

/** A token count as reported: a non-negative integer, else undefined. */
export function reportedCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/**
 * The usage a response reports, or null when it carries none we can read: input and output
 * counts missing or not non-negative integers, or a cache count present but unreadable.
 * `cached` is part of `input`.
 */
export function providerUsage(input: unknown, output: unknown, cached: unknown = 0): LiveUsage | null {
  const inputTokens = reportedCount(input);
  const outputTokens = reportedCount(output);
  const cachedInputTokens = cached === undefined || cached === null ? 0 : reportedCount(cached);
  if (inputTokens === undefined || outputTokens === undefined || cachedInputTokens === undefined) return null;
  return { inputTokens, outputTokens, cachedInputTokens };
}

/** Why a provider's usage cannot be charged as reported, or undefined when it can. */
export function implausibleUsage(reported: LiveUsage | null, own: OwnCount): string | undefined {
  if (!reported) return 'no usable usage in the response';
  if (reported.cachedInputTokens > reported.inputTokens) return 'more cached input tokens than input tokens';
  if (reported.inputTokens < LOWEST_PLAUSIBLE_SHARE * own.inputTokens)
    return `${reported.inputTokens} input tokens reported for a request of ${own.inputTokens} by our count`;
  if (reported.outputTokens < LOWEST_PLAUSIBLE_SHARE * own.outputTokens)
    return `${reported.outputTokens} output tokens reported for a response of ${own.outputTokens} by our count`;
  return undefined;
}
