import { ScratchArray } from '../util/scratch-array.ts';

/**
 * Indexes of `scores`, best first, ties in index (catalog) order: the order of
 * `sort((a, b) => scores[b] - scores[a] || a - b)`, by a stable merge sort that compares the
 * scores inline. Every ranking of the bench goes through it (120 to 10,000 tools each); with a
 * comparator called per comparison, building rankings took ~1.7 CPU-s of a warm run (profiles).
 */
export function rankOrder(scores: Float64Array): IndexArray {
  const n = scores.length;
  const out = indexArray(n);
  for (let i = 0; i < n; i++) out[i] = i;
  // NaN ties with everything under that comparator (the order is then the engine's): keep its sort.
  for (let i = 0; i < n; i++) if (scores[i] !== scores[i]) return out.sort((a, b) => scores[b]! - scores[a]! || a - b);
  // The sort works in two scratch arrays kept by the thread (no allocation per ranking) and
  // copies the result out. Runs of RUN by insertion, then merged in rounds. Equal scores never
  // pass each other, so ties keep index order; -0 and 0 (and equal infinities) are ties, as the
  // comparator has them.
  let order = orderScratch.atLeast(n);
  let merged = mergedScratch.atLeast(n);
  for (let i = 0; i < n; i++) order[i] = i;
  for (let lo = 0; lo < n; lo += RUN) {
    const hi = Math.min(lo + RUN, n);
    for (let i = lo + 1; i < hi; i++) {
      const x = order[i]!;
      const s = scores[x]!;
      let j = i - 1;
      for (; j >= lo && scores[order[j]!]! < s; j--) order[j + 1] = order[j]!;
      order[j + 1] = x;
    }
  }
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) merged[k++] = scores[order[j]!]! > scores[order[i]!]! ? order[j++]! : order[i++]!;
      while (i < mid) merged[k++] = order[i++]!;
      while (j < hi) merged[k++] = order[j++]!;
    }
    [order, merged] = [merged, order];
  }
  for (let i = 0; i < n; i++) out[i] = order[i]!;
  return out;
}

/** Indexes 0..n-1 in the narrowest array that holds them: a run keeps tens of thousands of rankings. */
export type IndexArray = Uint16Array | Uint32Array;

function indexArray(n: number): IndexArray {
  return n <= 0x10000 ? new Uint16Array(n) : new Uint32Array(n);
}

const orderScratch = new ScratchArray(Uint32Array);
const mergedScratch = new ScratchArray(Uint32Array);

const RUN = 16;

/**
 * The 1-based rank rankOrder gives index i, without ordering every score: one more than the
 * scores above it and the equal ones before it. Undefined when a score is NaN (rankOrder then
 * keeps the engine's sort order, which only sorting reproduces).
 */
export function rankOf(scores: Float64Array, i: number): number | undefined {
  const s = scores[i]!;
  if (Number.isNaN(s)) return undefined;
  let rank = 1;
  for (let j = 0; j < scores.length; j++) {
    const x = scores[j]!;
    if (Number.isNaN(x)) return undefined;
    if (x > s || (x === s && j < i)) rank++;
  }
  return rank;
}
