import porter2Stem from 'wink-porter2-stemmer';
import { tokenize } from '../embed/tfidf.ts';
import { ABBREVIATIONS, entityCueWords } from './vocabulary.ts';
import { cached, runCache } from '../util/run-scope.ts';

/**
 * Lexical analysis shared by the lexical retrievers (BM25, the learned reranker's features):
 * word tokens split on punctuation, `_`, `-` and camelCase, optional
 * developer-vocabulary expansion (./vocabulary.ts), English stop words dropped, Porter stems
 * (wink-porter2-stemmer, a maintained stemmer, rather than hand-written suffix rules; imported on
 * its own: wink-nlp-utils, which re-exports it, loads wink-nlp's English model into
 * every thread's heap on import).
 */
export interface AnalyzeOptions {
  /** Expand abbreviations and shell habits (default true). */
  vocabulary?: boolean;
  /** Add entity-cue words (queries only; default false). */
  entityCues?: boolean;
}

const STOP = new Set(
  'a an and are as at be by can could do does for from has have how i if in into is it its me my of on or our please should so that the their them then there these this to up us was we what when where which who why will with would you your'.split(
    ' ',
  ),
);

/**
 * Lower-case word tokens as TF-IDF splits them (embed/tfidf.ts: on anything but letters and
 * digits, then on camelCase, keeping the joined form too), except that a plural acronym stays
 * one word (`PRs` → `prs`, not `p rs`).
 */
function wordTokens(text: string): string[] {
  const out: string[] = [];
  for (const word of text.match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (/^\p{Lu}{2,}s$/u.test(word)) out.push(word.toLowerCase());
    else out.push(...tokenize(word));
  }
  return out;
}

/**
 * Longest word stemmed. wink-porter2-stemmer is quadratic in a word's length (32,000 letters:
 * seconds per word); no English word comes near this (the longest word of the bundled catalogs
 * and tasks has 37 letters), so a longer token is kept as it is.
 */
const MAX_STEM_CHARS = 64;
const STEMS = runCache('word stems by word', () => new Map<string, string>());
/** Distinct words whose stems are remembered at most; then the memo starts over. */
const MAX_STEMS = 200_000;
/** The stem of a word, remembered in `stemMemo` (the run's STEMS: looked up once by the caller, not per word). */
function stem(word: string, stemMemo: Map<string, string>): string {
  if (word.length > MAX_STEM_CHARS) return word;
  let s = stemMemo.get(word);
  if (s === undefined) {
    if (stemMemo.size >= MAX_STEMS) stemMemo.clear();
    stemMemo.set(word, (s = porter2Stem(word)));
  }
  return s;
}

// analyze() by options and text: every BM25 variant and fit sees the same tool fields and
// queries (a 10,000-tool catalog repeats its servers' texts); bounded, then started over.
const ANALYZED = runCache('analysed terms by options and text', () => new Map<string, readonly string[]>());
const MAX_ANALYZED = 200_000;

/**
 * The words of a text that are not stop words, lower-case, each with its stem, in order and
 * without repeats (no vocabulary expansion): what a writer of a search pattern would pick from.
 */
export function contentWords(text: string): { word: string; stem: string }[] {
  const seen = new Set<string>();
  const out: { word: string; stem: string }[] = [];
  const stems = cached(STEMS);
  for (const word of wordTokens(text)) {
    if (STOP.has(word) || seen.has(word)) continue;
    seen.add(word);
    out.push({ word, stem: stem(word, stems) });
  }
  return out;
}

/** Stemmed terms of a text, in order (repeats kept: BM25 counts them). A fresh array each call. */
export function analyze(text: string, options: AnalyzeOptions = {}): string[] {
  const key = `${(options.vocabulary ?? true) ? 1 : 0}${options.entityCues ? 1 : 0}${text}`;
  const analyzed = cached(ANALYZED);
  let terms = analyzed.get(key);
  if (!terms) {
    if (analyzed.size >= MAX_ANALYZED) analyzed.clear();
    analyzed.set(key, (terms = analyzeOnce(text, options)));
  }
  return [...terms];
}

function analyzeOnce(text: string, options: AnalyzeOptions): string[] {
  const vocabulary = options.vocabulary ?? true;
  const words = wordTokens(text);
  if (options.entityCues) words.push(...entityCueWords(text));
  const out: string[] = [];
  const stems = cached(STEMS);
  for (const w of words) {
    const expansion = vocabulary ? ABBREVIATIONS.get(w) : undefined;
    for (const x of expansion ?? [w]) if (!STOP.has(x)) out.push(stem(x, stems));
  }
  return out;
}
