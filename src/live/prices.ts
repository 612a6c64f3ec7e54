import { ownValue } from '../util/json.ts';
/**
 * List prices (USD per million tokens) of the models the live mode knows, with their sources.
 * A model id matches its longest listed prefix (`claude-sonnet-4-5-20250929` → `claude-sonnet-4-5`).
 * Prices change: `--price <input>,<output>` overrides them (and is required for any other
 * model, e.g. `--price 0,0` for a local server), so the budget cap never guesses.
 */
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
  /** Cache reads, when the provider bills them apart (else the input price is charged: conservative). */
  cachedInputPerMTok?: number;
  source: string;
}

const OPENAI = 'OpenAI API pricing page, https://openai.com/api/pricing (standard tier, as listed in late 2025)';
const ANTHROPIC = 'Anthropic pricing, https://platform.claude.com/docs/en/about-claude/pricing (as listed in late 2025)';

const LIST_PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6, cachedInputPerMTok: 0.075, source: OPENAI },
  'gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10, cachedInputPerMTok: 1.25, source: OPENAI },
  'gpt-4.1-nano': { inputPerMTok: 0.1, outputPerMTok: 0.4, cachedInputPerMTok: 0.025, source: OPENAI },
  'gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6, cachedInputPerMTok: 0.1, source: OPENAI },
  'gpt-4.1': { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5, source: OPENAI },
  'gpt-5-mini': { inputPerMTok: 0.25, outputPerMTok: 2, cachedInputPerMTok: 0.025, source: OPENAI },
  'gpt-5': { inputPerMTok: 1.25, outputPerMTok: 10, cachedInputPerMTok: 0.125, source: OPENAI },
  'claude-haiku-4-5': { inputPerMTok: 1, outputPerMTok: 5, cachedInputPerMTok: 0.1, source: ANTHROPIC },
  'claude-sonnet-4-5': { inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 0.3, source: ANTHROPIC },
  'claude-opus-4-5': { inputPerMTok: 5, outputPerMTok: 25, cachedInputPerMTok: 0.5, source: ANTHROPIC },
};

/** The list price of a model id (longest matching prefix), or undefined. */
export function listPrice(model: string): ModelPrice | undefined {
  const key = Object.keys(LIST_PRICES)
    .filter((k) => model === k || model.startsWith(`${k}-`))
    .sort((a, b) => b.length - a.length)[0];
  return key ? ownValue(LIST_PRICES, key) : undefined;
}

/** USD for one call's usage. */
export function callCostUsd(price: ModelPrice, inputTokens: number, cachedInputTokens: number, outputTokens: number): number {
  const cached = Math.min(inputTokens, cachedInputTokens);
  const cachedRate = price.cachedInputPerMTok ?? price.inputPerMTok;
  return ((inputTokens - cached) * price.inputPerMTok + cached * cachedRate + outputTokens * price.outputPerMTok) / 1e6;
}
