import { quantileSorted } from './bootstrap.ts';

/**
 * `quantileSorted(values sorted ascending, q)` for each q, without sorting: each order statistic
 * that quantileSorted reads is selected in place in one copy (quickselect, expected linear
 * time). It reads the same elements, so the numbers are the same bits as sorting. The
 * projection asks two quantiles of every turn's latency in each of its projections, where a
 * full sort each time would dominate.
 */
export function quantilesOf(values: Float64Array, qs: readonly number[]): number[] {
  const n = values.length;
  // A typed array sorts NaN last and -0 before 0; selection compares with < and >: sort when either is there.
  if (n === 0 || hasNaNOrNegativeZero(values)) {
    const sorted = values.slice().sort();
    return qs.map((q) => quantileSorted(sorted, q));
  }
  const a = values.slice();
  // Order statistics in ascending position; each selection narrows the range of the next.
  const order = qs.map((q, i) => ({ i, pos: (n - 1) * q })).sort((x, y) => x.pos - y.pos);
  const out = new Array<number>(qs.length);
  let left = 0;
  for (const { i, pos } of order) {
    const lo = Math.floor(pos);
    const hi = Math.ceil(pos);
    if (lo >= left) {
      selectInPlace(a, lo, left, n - 1);
      left = lo;
    }
    // After selecting lo, everything right of it is ≥ a[lo]: the next order statistic is their minimum.
    let next = a[lo]!;
    if (hi !== lo) {
      next = Infinity;
      for (let j = lo + 1; j < n; j++) if (a[j]! < next) next = a[j]!;
    }
    out[i] = a[lo]! + (next - a[lo]!) * (pos - lo);
  }
  return out;
}

/** A loop, not `some`: a callback is given each element as a boxed number. */
function hasNaNOrNegativeZero(values: Float64Array): boolean {
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v !== v || (v === 0 && 1 / v < 0)) return true;
  }
  return false;
}

/**
 * Puts the k-th smallest of a[l..r] at k, smaller-or-equal ones before it and greater-or-equal
 * ones after (Hoare partitioning around a median of three, as in Numerical Recipes' select). A
 * range still unresolved after 64 rounds is sorted instead, so the worst case stays n log n.
 */
function selectInPlace(a: Float64Array, k: number, l: number, r: number): void {
  const swap = (i: number, j: number) => {
    const t = a[i]!;
    a[i] = a[j]!;
    a[j] = t;
  };
  for (let rounds = 0; ; rounds++) {
    if (r <= l + 1) {
      if (r === l + 1 && a[r]! < a[l]!) swap(l, r);
      return;
    }
    if (rounds === 64) {
      a.subarray(l, r + 1).sort();
      return;
    }
    swap((l + r) >>> 1, l + 1);
    if (a[l]! > a[r]!) swap(l, r);
    if (a[l + 1]! > a[r]!) swap(l + 1, r);
    if (a[l]! > a[l + 1]!) swap(l, l + 1);
    const pivot = a[l + 1]!;
    let i = l + 1;
    let j = r;
    for (;;) {
      do i++;
      while (a[i]! < pivot);
      do j--;
      while (a[j]! > pivot);
      if (j < i) break;
      swap(i, j);
    }
    a[l + 1] = a[j]!;
    a[j] = pivot;
    if (j >= k) r = j - 1;
    if (j <= k) l = i;
  }
}
