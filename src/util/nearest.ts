/**
 * The names a user probably meant: the one place typos are matched, for option ids, JSON keys
 * and tool ids alike, so a suggestion reads the same wherever the mistake is made.
 */

/** How many edits a name of this length may be from a known one and still be suggested. */
function editBound(name: string): number {
  return Math.max(2, Math.floor(name.length / 4));
}

/**
 * The known names within a few edits of `name` (case-insensitive, `_` and `-` counted as
 * characters), nearest first, ties in the given order; at most `max`.
 */
export function nearestNames(name: string, known: Iterable<string>, max = 1): string[] {
  const bound = editBound(name);
  const lower = name.toLowerCase();
  const scored: { name: string; d: number; i: number }[] = [];
  let i = 0;
  for (const candidate of known) {
    const d = editDistance(lower, candidate.toLowerCase(), bound);
    if (d <= bound) scored.push({ name: candidate, d, i });
    i++;
  }
  return scored
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .slice(0, max)
    .map((s) => s.name);
}

/** ` (did you mean x?)`, ` (did you mean x or y?)` for the nearest known names, else nothing. */
export function didYouMean(name: string, known: Iterable<string>, max = 1, quote = (s: string) => s): string {
  return suggestionText(nearestNames(name, known, max).map(quote));
}

/** ` (did you mean x, y or z?)`, or nothing for no names. */
export function suggestionText(names: readonly string[]): string {
  if (names.length === 0) return '';
  return ` (did you mean ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`}?)`;
}

/**
 * Levenshtein distance, or any number above `bound` once it is certain to exceed it (a long
 * name from a file costs no more than a short one).
 */
function editDistance(a: string, b: string, bound: number): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, row[j]!);
    }
    if (best > bound) return bound + 1;
    previous = row;
  }
  return previous[b.length]!;
}
