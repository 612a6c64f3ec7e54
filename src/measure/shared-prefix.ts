import type { PromptSection } from '../prompt/types.ts';

/**
 * What a provider's prefix cache can serve of a prompt: its leading part identical to the prompt
 * sent before it. Measured section by section on the prompt text (same role, same text), never
 * from which pipeline wrote it. A section that changes is not partly reused, so this is a lower
 * bound of the token-level match a provider computes.
 */

/** Length (in sections) of the leading run of `cur` identical to the leading run of `prev`. */
export function commonLeadingSections(prev: readonly PromptSection[] | undefined, cur: readonly PromptSection[]): number {
  if (!prev) return 0;
  let k = 0;
  while (k < prev.length && k < cur.length && prev[k]!.role === cur[k]!.role && prev[k]!.text === cur[k]!.text) k++;
  return k;
}

/**
 * Tokens of the leading sections of `cur` shared with `prev` (0 when there is no previous
 * prompt), with `counts` the token count of each section of `cur`.
 */
export function sharedPrefixTokens(
  prev: readonly PromptSection[] | undefined,
  cur: readonly PromptSection[],
  counts: readonly number[],
): number {
  const k = commonLeadingSections(prev, cur);
  let tokens = 0;
  for (let i = 0; i < k; i++) tokens += counts[i]!;
  return tokens;
}
