import { extractVariables, withoutVariables } from './variables.ts';
import { cached, runCache } from '../../util/run-scope.ts';

/**
 * Keyword extraction and overlap scoring for the pattern tier (draft §6.3 Tier 2: "matched
 * against keyword patterns ... above the configured threshold"). Variable values are removed
 * first, so two runs of the same instruction for different months share every keyword.
 */

const STOPWORDS = new Set(
  (
    'the a an and or but in on to for of with at by from up about into through is are was were be been being have has had ' +
    'do does did will would could should may might i me my we our you your it its this that these those all each every both ' +
    'few more most other some please need want like just also then than them they their there here what which when once ' +
    'before after any anything nobody only so as if not now next thanks still can let sure make sent send back know'
  ).split(' '),
);

/** Crude plural folding so "records" and "record" match; no full stemmer needed for this. */
function fold(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

const KEYWORDS = runCache('AACP keywords by text', () => new Map<string, string[]>());

/** Keywords in first-seen order. Memoised: treat the result as read-only. */
export function keywordsOf(text: string): string[] {
  const memo = cached(KEYWORDS);
  const known = memo.get(text);
  if (known) return known;
  if (memo.size > 10_000) memo.clear();
  const out = extractKeywords(text);
  memo.set(text, out);
  return out;
}

function extractKeywords(text: string): string[] {
  const { spans } = extractVariables(text);
  const words =
    withoutVariables(text, spans)
      .toLowerCase()
      .match(/[a-z]+/g) ?? [];
  const out: string[] = [];
  for (const w of words) {
    const k = fold(w);
    if (w.length <= 3 || STOPWORDS.has(w) || STOPWORDS.has(k)) continue;
    if (!out.includes(k)) out.push(k);
  }
  return out;
}

/** Share of the pattern's keywords present in the instruction (built-in patterns are short lists). */
export function coverage(instruction: readonly string[], pattern: readonly string[]): number {
  if (pattern.length === 0) return 0;
  const have = new Set(instruction);
  return pattern.filter((k) => have.has(k)).length / pattern.length;
}

/**
 * Symmetric overlap for registry patterns (both sides are whole instructions): a longer
 * instruction that merely contains an old one does not score 1.
 */
export function symmetricOverlap(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const setA = new Set(a);
  const common = b.filter((k) => setA.has(k)).length;
  return common / Math.max(a.length, b.length);
}
