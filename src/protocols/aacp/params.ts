/**
 * Parameters of the AACP study: numbers we do not measure, each with where it comes from.
 * Changing one changes projections, never a measured token count.
 */

export interface FramingProfile {
  /** Tokens the provider's chat format adds around one bare user message (role markers, reply priming). */
  tokens: number;
  source: string;
}

export const AACP_PARAMS = {
  /** USD per LLM-encoded instruction. Source: draft §6.2/§10.4, "approximately $0.0006 USD per instruction" at Claude Sonnet 4.5 pricing. */
  llmCostPerCallUsd: 0.0006,
  /** Tier 2 threshold on keyword overlap. Harness choice; the reference SDK (aacp/encoders/fallback.py) uses 0.5 on raw words. */
  patternThreshold: 0.6,
  /** Per-provider wrapper tokens added to a bare user message (draft §10.1 measured "a bare user message"). */
  framing: {
    bare: { tokens: 0, source: 'content tokens only' },
    'openai-chat': {
      tokens: 7,
      source: 'OpenAI cookbook "How to count tokens with tiktoken": 3 per message + 1 for the role name + 3 priming the reply',
    },
    'anthropic-messages': {
      tokens: 7,
      source:
        'ASSUMPTION: Anthropic publishes neither its tokenizer nor a per-message overhead; set equal to the OpenAI figure. Claude rows use cl100k/o200k content counts as a proxy.',
    },
  } satisfies Record<string, FramingProfile>,
} as const;

export type FramingName = keyof typeof AACP_PARAMS.framing;
export const FRAMINGS = Object.keys(AACP_PARAMS.framing) as FramingName[];

/**
 * The draft's own figures (draft-mackay-aacp-01 §10.2, "Four-hop payroll workflow. Tokens from
 * live API", Claude Sonnet 4.5 counts; GPT-4o only as percentages). Printed BESIDE our
 * measurements; never used as one.
 */
export const PUBLISHED_AACP_PAYROLL = {
  source: 'draft-mackay-aacp-01 §10.2 (live API usage, bare user message, max_tokens=1, May 2026)',
  hops: {
    'fetch-employees': { english: 56, aacp: 52, claudePct: -7.1, gpt4oPct: -12.7 },
    'fetch-budgets': { english: 57, aacp: 47, claudePct: -17.5, gpt4oPct: -16.0 },
    'merge-calculate': { english: 65, aacp: 43, claudePct: -33.8, gpt4oPct: -31.6 },
    'generate-report': { english: 62, aacp: 43, claudePct: -30.6, gpt4oPct: -33.3 },
  } as Record<string, { english: number; aacp: number; claudePct: number; gpt4oPct: number }>,
  total: { english: 240, aacp: 185, claudePct: -22.9, gpt4oPct: -23.7 },
  /** §10.4: a direct LLM call for the same four messages ≈ $0.0024; 500 runs save ≈ $1.20. */
  directLlmPerRunUsd: 0.0024,
  savedOver500RunsUsd: 1.2,
} as const;
