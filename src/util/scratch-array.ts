/**
 * A typed array a thread keeps and reuses instead of allocating one per call, grown when a call
 * needs more: for hot functions that do not re-enter (a ranking, a query's scores). Small typed
 * arrays made by the thousand each have a backing store of their own, and left the allocator's
 * arena tens of MB larger after a run.
 */
export class ScratchArray<T extends Uint32Array | Float64Array> {
  private array: T;

  constructor(private readonly type: { new (length: number): T }) {
    this.array = new type(0);
  }

  /** At least `n` entries, holding whatever the last caller left. */
  atLeast(n: number): T {
    if (this.array.length < n) this.array = new this.type(n);
    return this.array;
  }

  /** At least `n` entries, the first `n` of them zero. */
  zeroed(n: number): T {
    return this.atLeast(n).fill(0, 0, n) as T;
  }
}
