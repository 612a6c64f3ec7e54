import { getEncoding, type Tiktoken, type TiktokenEncoding } from 'js-tiktoken';

export const TOKENIZERS = ['cl100k_base', 'o200k_base'] as const;
export type TokenizerName = (typeof TOKENIZERS)[number];
export const DEFAULT_TOKENIZER: TokenizerName = 'cl100k_base';

export function isTokenizerName(name: string): name is TokenizerName {
  return (TOKENIZERS as readonly string[]).includes(name);
}

/**
 * Counts tokens with a real BPE tokenizer, memoised by content: a text seen twice is encoded
 * once. Always count the exact text that would be sent to the model.
 */
export class TokenCounter {
  private readonly encoder: Tiktoken;
  private readonly memo = new Map<string, number>();
  hits = 0;
  misses = 0;

  constructor(readonly tokenizer: TokenizerName = DEFAULT_TOKENIZER) {
    this.encoder = getEncoding(tokenizer as TiktokenEncoding);
  }

  // Special-token strings such as <|endoftext|> are counted as plain text: a tool description
  // is data, not a control sequence.
  count(text: string): number {
    const known = this.memo.get(text);
    if (known !== undefined) {
      this.hits++;
      return known;
    }
    this.misses++;
    const n = this.encoder.encode(text, [], []).length;
    this.memo.set(text, n);
    return n;
  }

  encode(text: string): number[] {
    return this.encoder.encode(text, [], []);
  }
}

const shared = new Map<TokenizerName, TokenCounter>();

/** One memoised counter per tokenizer for the whole process. */
export function tokenCounter(tokenizer: TokenizerName = DEFAULT_TOKENIZER): TokenCounter {
  let c = shared.get(tokenizer);
  if (!c) {
    c = new TokenCounter(tokenizer);
    shared.set(tokenizer, c);
  }
  return c;
}

export function countTokens(text: string, tokenizer: TokenizerName = DEFAULT_TOKENIZER): number {
  return tokenCounter(tokenizer).count(text);
}
