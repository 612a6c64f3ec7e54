import { cached, runCache } from '../util/run-scope.ts';

/**
 * The distinct ids of a list, in first-seen order: `[...new Set(ids)]`, remembered for the
 * last list asked (in the run's context: src/util/run-scope.ts). A pipeline that shows the same
 * tools every turn (B1's 120) hands back the same list each time, and a Set and a copy per turn
 * were most of what measuring its turns allocated. The answer is reused only while the list
 * still holds what it held then (checked element by element, no allocation), so a list changed
 * in place is deduplicated again.
 */
export function distinctIds(ids: readonly string[]): readonly string[] {
  // A turn's few retrieved tools: a scan finds no repeat without a Set, and the list is its own answer.
  if (ids.length <= SCAN_UP_TO && !hasRepeat(ids)) return ids;
  const memo = cached(LAST);
  const last = memo.last;
  if (last && ids === last.ids && sameElements(ids, last.snapshot)) return last.distinct;
  const distinct = [...new Set(ids)];
  memo.last = { ids, snapshot: distinct.length === ids.length ? distinct : [...ids], distinct };
  return distinct;
}

const LAST = runCache('the last list distinctIds deduplicated, and its answer', () => ({
  last: undefined as { ids: readonly string[]; snapshot: readonly string[]; distinct: readonly string[] } | undefined,
}));

/** Lists up to this long are checked for repeats by comparing every pair (at most 496 comparisons). */
const SCAN_UP_TO = 32;

function hasRepeat(ids: readonly string[]): boolean {
  for (let i = 1; i < ids.length; i++) for (let j = 0; j < i; j++) if (ids[i] === ids[j]) return true;
  return false;
}

/** The same strings in the same order. */
export function sameElements(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
