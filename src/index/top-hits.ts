import { compareHits, type SearchHit } from './types.ts';

/**
 * The best `limit` rows by (score descending, id ascending), from the score of every row: a
 * small sorted array while `limit` is small next to the rows (the usual top-10 to top-80), a
 * full sort otherwise. The same hits as sorting every row by compareHits and cutting.
 */
export function topHits(scores: ArrayLike<number>, ids: readonly string[], limit: number): SearchHit[] {
  const n = ids.length;
  if (limit <= 0 || n === 0) return [];
  if (limit * 8 > n) {
    const all = ids.map((id, row) => ({ id, score: scores[row]! }));
    return all.sort(compareHits).slice(0, limit);
  }
  const top: SearchHit[] = [];
  for (let row = 0; row < n; row++) {
    const score = scores[row]!;
    if (top.length === limit) {
      const last = top[limit - 1]!;
      if (score < last.score || (score === last.score && ids[row]! > last.id)) continue;
    }
    let pos = top.length === limit ? limit - 1 : top.length;
    top[pos] = { id: ids[row]!, score };
    while (pos > 0 && compareHits(top[pos]!, top[pos - 1]!) < 0) {
      [top[pos], top[pos - 1]] = [top[pos - 1]!, top[pos]!];
      pos--;
    }
  }
  return top;
}
