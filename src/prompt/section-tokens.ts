import type { TokenCounter } from '../tokens/counter.ts';
import { isKeptSection } from './sections.ts';
import type { PromptSection } from './types.ts';

// A builder hands back the same section object on every turn for what does not change (a
// full tool list, a summary pool, one promoted definition): its count is kept with the
// object, so a large list is not split and looked up again each turn, and a
// definition promoted on a thousand turns is not hashed and compared a thousand times.
// Keyed weakly; the text is compared too, in case an object is reused with new text. One count
// per counter: host profiles count the same section with their own tokenizers (src/hosts).
const sectionCounts = new WeakMap<PromptSection, { text: string; byCounter: Map<TokenCounter, number> }>();

/** Tokens of one section's text, exactly tokens.count(section.text), memoised by the section object. */
export function sectionTokens(section: PromptSection, tokens: TokenCounter): number {
  let known = sectionCounts.get(section);
  if (!known || known.text !== section.text) sectionCounts.set(section, (known = { text: section.text, byCounter: new Map() }));
  let n = known.byCounter.get(tokens);
  if (n === undefined) {
    n = isKeptSection(section) ? tokens.countUnkept(section.text) : tokens.count(section.text);
    known.byCounter.set(tokens, n);
  }
  return n;
}
