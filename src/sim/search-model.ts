import type { CatalogTool } from '../catalog/types.ts';
import { contentWords } from '../retrieval/tokenize.ts';
import { Rng } from '../util/rng.ts';
import type { ParamValues } from './projection/params.ts';

/**
 * The searching model: what a model writes into a tool search and when it searches, used by
 * every search pipeline (the host tool searches, the code-execution file search, search +
 * execute). docs/measurement.md, "The searching model", is its description for readers.
 *
 * On a turn that needs tools the model looks for one capability per needed tool it does not
 * already have loaded (a tool loaded by an earlier search is never searched for again). For each
 * capability it writes a query (BM25, client search) or a pattern (regex) and reads what comes
 * back; when nothing fitting came back it searches again, up to `search.attemptsPerCapability`
 * searches per capability and `search.maxPerTurn` per turn. A search it already ran in this task
 * is not sent again: its results are still in the context.
 *
 * What it writes: a model knows more than the request says (it knows GitHub's vocabulary), but
 * the bench may not read the needed tool's words unconditionally. So each search draws whether
 * the model phrases the capability in the tool's own vocabulary (probability
 * `search.knowledge`, calibrated on published figures: the search-calibration study) or only
 * from the request's words, the way the selection model gives a shown tool a calibrated chance
 * of being the one picked. "Fitting" is the model recognising the needed tool among the loaded
 * definitions (the selection model then decides whether it picks it).
 *
 * Bands: `lower` is the raw request, one search per tool turn whatever is loaded (the emulation
 * before this model); `upper` is every search phrased in the needed tool's own words; the
 * calibrated point lies between. The tables show all three.
 */

export type SearchBand = 'lower' | 'calibrated' | 'upper';

/** What the model writes into a search: a natural-language query, or a regex pattern. */
export type SearchSyntax = 'query' | 'regex';

/** The input a search call carries: `query` (BM25, client search) or `pattern` (regex). */
export type SearchInput = { query: string } | { pattern: string };

/** One search the model ran: what it wrote and the tool ids that came back. */
export interface SearchStep {
  input: SearchInput;
  found: readonly string[];
}

/** Runs one search over the catalog: the tool ids it returns, best first. */
export type SearchEngine = (input: SearchInput) => Promise<readonly string[]>;

/** The parameters the searching model reads (src/sim/projection/params.ts, group `search.`). */
export type SearchValues = Pick<ParamValues, 'search.knowledge' | 'search.attemptsPerCapability' | 'search.maxPerTurn'>;

export interface SearchTurnInput {
  request: string;
  /** The tools the turn needs, in call order. */
  needed: readonly CatalogTool[];
  /** Tool ids whose definitions are loaded already. */
  loaded: ReadonlySet<string>;
  /** Searches run earlier in this task, by input (their results are still in the context); updated. */
  ran: Map<string, readonly string[]>;
  syntax: SearchSyntax;
  band: SearchBand;
  /** A uniform draw in [0, 1) for this capability and attempt, seeded by the caller. */
  draw: (tool: CatalogTool, attempt: number) => number;
  values: SearchValues;
  engine: SearchEngine;
}

/** The searches the model runs on one turn, in order. */
export async function searchTurn(a: SearchTurnInput): Promise<SearchStep[]> {
  if (!a.needed.length) return [];
  if (a.band === 'lower') {
    const input = requestInput(a.request, a.syntax, 0);
    return input ? [{ input, found: await a.engine(input) }] : [];
  }
  const steps: SearchStep[] = [];
  const have = new Set(a.loaded);
  const attempts = Math.max(1, Math.round(a.values['search.attemptsPerCapability']));
  const cap = Math.max(1, Math.round(a.values['search.maxPerTurn']));
  for (const tool of a.needed) {
    for (let attempt = 0; attempt < attempts && steps.length < cap && !have.has(tool.id); attempt++) {
      const knows = a.band === 'upper' || a.draw(tool, attempt) < a.values['search.knowledge'];
      const input = knows ? capabilityInput(tool, a.syntax, attempt) : requestInput(a.request, a.syntax, attempt);
      if (!input) continue;
      const key = JSON.stringify(input);
      let found = a.ran.get(key);
      if (!found) {
        found = await a.engine(input);
        a.ran.set(key, found);
        steps.push({ input, found });
      }
      for (const f of found) have.add(f);
    }
  }
  return steps;
}

/**
 * The knowledge draws of one turn, seeded by the run's seed, the task, the turn, the capability
 * and the attempt: every search pipeline draws the same for the same capability (common random
 * numbers), so their differences are the search's and not the draws'.
 */
export function turnDraws(seed: number, taskId: string, turnIndex: number): SearchTurnInput['draw'] {
  return (tool, attempt) => new Rng(seed, `search|${taskId}|${turnIndex}|${tool.id}|${attempt}`).next();
}

/** The longest regex pattern Anthropic's regex variant accepts. */
export const MAX_REGEX_CHARS = 200;
/** The longest word a model copies from a request into a search (longer runs are ids, paths, base64). */
const MAX_WORD_CHARS = 24;
/** The longest run of text without a space a model reads as words (a path, a URL); longer: a blob. */
const MAX_TOKEN_CHARS = 64;
/** Words of a narrowed request query (the second try when the request itself found nothing fitting). */
const NARROW_WORDS = 4;
/** Words of a capability phrase. */
const CAPABILITY_WORDS = 8;
/** Words that name no capability in a tool's name. */
const GENERIC = new Set(['get', 'set', 'do', 'make', 'run', 'tool', 'tools', 'mcp', 'use']);

/** Content words a model would copy from a text: letters only, not longer than a word, none from a run of text longer than MAX_TOKEN_CHARS (an encoded blob). */
function plainWords(text: string): { word: string; stem: string; i: number }[] {
  const readable = text
    .split(/\s+/)
    .filter((t) => t.length <= MAX_TOKEN_CHARS)
    .join(' ');
  return contentWords(readable)
    .map((w, i) => ({ ...w, i }))
    .filter((w) => w.word.length > 1 && w.word.length <= MAX_WORD_CHARS && /^\p{L}+$/u.test(w.word));
}

/** The `n` longest words (ties: first), skipping the first `skip` of that order, back in text order. */
function longest<T extends { word: string; i: number }>(words: readonly T[], n: number, skip = 0): T[] {
  return [...words]
    .sort((a, b) => b.word.length - a.word.length || a.i - b.i)
    .slice(skip, skip + n)
    .sort((a, b) => a.i - b.i);
}

/** A word as a pattern writes it: its stem when the stem is a prefix (so `emails` finds `email`). */
function patternWord(w: { word: string; stem: string }): string {
  return escapeRegex(w.word.startsWith(w.stem) && w.stem.length >= 3 ? w.stem : w.word);
}

/**
 * What the model writes from the request alone. Query: the request itself, then (second try)
 * its NARROW_WORDS longest words. Pattern: the case-insensitive alternation of the request's two
 * longest words, then of the next two.
 */
export function requestInput(request: string, syntax: SearchSyntax, attempt: number): SearchInput | undefined {
  if (syntax === 'query') {
    if (attempt === 0) return request.trim() ? { query: request } : undefined;
    const words = longest(plainWords(request), NARROW_WORDS).map((w) => w.word);
    return words.length ? { query: words.join(' ') } : undefined;
  }
  const pattern = regexForRequest(request, 2, attempt === 0 ? 0 : 2);
  return pattern ? { pattern } : undefined;
}

/**
 * The request's `words` longest content words (ties: first in the request), after skipping
 * `skip` of them, as a case-insensitive alternation: the pattern of a model that knows only the
 * request. Undefined when no word is left.
 */
export function regexForRequest(request: string, words = 2, skip = 0): string | undefined {
  const picked = longest(plainWords(request), words, skip).map(patternWord);
  return alternation(picked);
}

/** `(?i)a|b|…`, alternatives dropped from the end until it fits the documented limit. */
function alternation(words: string[]): string | undefined {
  const patternOf = (ws: readonly string[]) => `(?i)${ws.join('|')}`;
  while (words.length > 1 && patternOf(words).length > MAX_REGEX_CHARS) words.pop();
  return words.length && patternOf(words).length <= MAX_REGEX_CHARS ? patternOf(words) : undefined;
}

/** The words of a tool's name that name its capability (`query_database` → query, database). */
function nameWords(tool: CatalogTool) {
  const words = plainWords(tool.definition.name);
  const specific = words.filter((w) => !GENERIC.has(w.word));
  return specific.length ? specific : words;
}

/**
 * The capability in the tool's own words: its name's words, then the first sentence of its
 * description, CAPABILITY_WORDS words at most. What the model writes when it knows the
 * vocabulary (and every search of the upper band).
 */
export function capabilityPhrase(tool: CatalogTool): string {
  const firstSentence = (tool.definition.description ?? '').split(/(?<=[.!?。])\s/)[0] ?? '';
  const out: string[] = [];
  for (const w of [...nameWords(tool), ...plainWords(firstSentence)]) {
    if (out.length >= CAPABILITY_WORDS) break;
    if (!out.includes(w.word)) out.push(w.word);
  }
  return out.join(' ') || tool.definition.name;
}

/**
 * The pattern for a capability, the way the documentation writes one (`database.*query|query.*database`):
 * the two longest words of the tool's name, in either order; the second try, the longest alone.
 */
export function capabilityRegex(tool: CatalogTool, attempt: number): string | undefined {
  const words = longest(nameWords(tool), 2).map(patternWord);
  if (!words.length) return undefined;
  if (attempt > 0 || words.length === 1) return alternation([[...words].sort((a, b) => b.length - a.length)[0]!]);
  const [a, b] = words;
  const pattern = `(?i)${a}.*${b}|${b}.*${a}`;
  return pattern.length <= MAX_REGEX_CHARS ? pattern : alternation([a!]);
}

/** What the model writes when it knows the capability's vocabulary (second try: the name's words alone). */
export function capabilityInput(tool: CatalogTool, syntax: SearchSyntax, attempt: number): SearchInput | undefined {
  if (syntax === 'query')
    return {
      query:
        attempt === 0
          ? capabilityPhrase(tool)
          : nameWords(tool)
              .map((w) => w.word)
              .join(' ') || tool.definition.name,
    };
  const pattern = capabilityRegex(tool, attempt);
  return pattern ? { pattern } : undefined;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
