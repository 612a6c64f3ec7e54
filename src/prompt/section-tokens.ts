import type { TokenCounter } from '../tokens/counter.ts';
import { isKeptSection } from './sections.ts';
import type { PromptSection } from './types.ts';

// A builder hands back the same section object on every turn for what does not change (a
// full tool list, a summary pool, one promoted definition): its count is kept with the
// object, so a large list is not split and looked up again each turn, and a
// definition promoted on a thousand turns is not hashed and compared a thousand times. Kept by
// the counter (TokenCounter.countKeptWith): host profiles count the same section with their
// own tokenizers (src/hosts), and the counts go with the run that owns the counter.

/** Tokens of one section's text, exactly tokens.count(section.text), memoised by the section object. */
export function sectionTokens(section: PromptSection, tokens: TokenCounter): number {
  return tokens.countKeptWith(section, section.text, !isKeptSection(section));
}
