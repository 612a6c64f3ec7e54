import { createHash } from 'node:crypto';
import type { Encoder } from './types.ts';
import { blockRows } from '../util/block-rows.ts';
import { l2Normalize } from './vector.ts';

export interface TfidfOptions {
  /** The documents the vocabulary and idf are fitted on (e.g. every tool summary). */
  corpus: readonly string[];
  /**
   * Keep only this many terms, those in the most documents (ties: alphabetical), as
   * scikit-learn's max_features: bounds the vector size on a large corpus (a 10,000-tool
   * catalog has ~2,100 terms, 4× the memory of a 512-d dense encoder). Default: every term.
   */
  maxFeatures?: number;
}

/**
 * Lower-case word tokens. camelCase words are split too, because tool names such as
 * `createIssue` carry the words a query would use; the joined form is kept as well so that
 * `GitHub` still matches `github`. snake_case splits on the underscore like any punctuation.
 */
const PLAIN_WORD = /^[a-z0-9]+$/;

export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const word of text.match(/[\p{L}\p{N}]+/gu) ?? []) {
    // Most words are already lower-case ASCII: nothing to split or lower.
    if (PLAIN_WORD.test(word)) {
      out.push(word);
      continue;
    }
    const parts = word
      .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
      .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
      .toLowerCase()
      .split(' ');
    out.push(...parts);
    if (parts.length > 1) out.push(word.toLowerCase());
  }
  return out;
}

/**
 * Lexical baseline for ablations: TF-IDF with sublinear tf (1 + ln tf) and smoothed idf
 * (ln((1 + N) / (1 + df)) + 1, as scikit-learn), dense over the sorted corpus vocabulary and
 * L2-normalised. Words outside the corpus are ignored, so a query sharing no word with any tool
 * gets the zero vector (score 0 against everything).
 */
export function createTfidfEncoder(options: TfidfOptions): Encoder & { fingerprint: string; vocabulary: readonly string[] } {
  const { corpus } = options;
  if (!corpus || corpus.length === 0) throw new Error('tfidf: options.corpus must be a non-empty list of texts to fit the vocabulary on');
  const df = new Map<string, number>();
  // A document's distinct terms, found once per distinct text: a large catalog repeats its
  // definitions (at N = 10,000 the scaling study's corpus holds each of them many times).
  const termsOf = new Map<string, readonly string[]>();
  for (const doc of corpus) {
    let terms = termsOf.get(doc);
    if (!terms) termsOf.set(doc, (terms = [...new Set(tokenize(doc))]));
    for (const term of terms) df.set(term, (df.get(term) ?? 0) + 1);
  }
  if (df.size === 0) throw new Error('tfidf: the corpus contains no words');
  const { maxFeatures } = options;
  if (maxFeatures !== undefined && (!Number.isInteger(maxFeatures) || maxFeatures <= 0))
    throw new Error(`tfidf: maxFeatures must be a positive integer, got ${maxFeatures}`);
  const all = [...df.keys()].sort();
  const kept =
    maxFeatures === undefined || maxFeatures >= all.length
      ? all
      : all
          .map((t, i) => ({ t, i }))
          .sort((a, b) => df.get(b.t)! - df.get(a.t)! || a.i - b.i)
          .slice(0, maxFeatures)
          .map((x) => x.t)
          .sort();
  const vocabulary = kept;
  const column = new Map(vocabulary.map((t, i) => [t, i]));
  const n = corpus.length;
  const idf = Float32Array.from(vocabulary, (t) => Math.log((1 + n) / (1 + df.get(t)!)) + 1);
  // The fit depends on the multiset of documents, not their order.
  const fingerprint = createHash('sha256')
    .update([...corpus].sort().join('\u0000'))
    .digest('hex')
    .slice(0, 16);
  const capped = kept.length < all.length ? `, the ${kept.length} terms in most documents of ${all.length}` : '';

  return {
    name: 'tfidf',
    description: `TF-IDF (sublinear tf, smoothed idf, L2-normalised), vocabulary of ${vocabulary.length} words${capped} fitted on ${n} texts (corpus sha256 ${fingerprint})`,
    dim: vocabulary.length,
    fingerprint: `corpus-${fingerprint}${kept.length < all.length ? `-top${kept.length}` : ''}`,
    vocabulary,
    async embed(texts: readonly string[]): Promise<Float32Array[]> {
      // One block for the call (the scaling study embeds 10,000 tools at once).
      const rows = blockRows(Float32Array, texts.length, vocabulary.length);
      return texts.map((text, i) => {
        const tf = new Map<number, number>();
        for (const term of tokenize(text)) {
          const col = column.get(term);
          if (col !== undefined) tf.set(col, (tf.get(col) ?? 0) + 1);
        }
        const v = rows[i]!;
        for (const [col, count] of tf) v[col] = (1 + Math.log(count)) * idf[col]!;
        return l2Normalize(v);
      });
    },
  };
}
