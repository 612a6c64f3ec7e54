/**
 * Greedy longest-first (LPT): items by estimated cost, largest first (ties in list order), each
 * to the shard with the least estimated cost so far (ties to the lower index). The same split
 * from the same list, on any machine; a wrong estimate makes one shard slower, never a result
 * different. Used by the bench's shard plan and by a live run's.
 */
/** Each shard's items, in the order given. */
export function planByCost<T>(items: readonly { item: T; cost: number }[], count: number): T[][] {
  const order = items.map((u, i) => ({ i, cost: u.cost })).sort((a, b) => b.cost - a.cost || a.i - b.i);
  const load = new Array<number>(count).fill(0);
  const shardOf = new Array<number>(items.length);
  for (const { i, cost } of order) {
    const least = load.indexOf(Math.min(...load));
    shardOf[i] = least;
    load[least]! += cost;
  }
  return Array.from({ length: count }, (_, s) => items.flatMap((u, i) => (shardOf[i] === s ? [u.item] : [])));
}
