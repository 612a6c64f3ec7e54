import { PANEL_ROWS, sgemmAddon, type SgemmAddon } from '../util/sgemm-addon.ts';
import { topHits } from './top-hits.ts';
import { checkAdd, checkQuery, type SearchHit, type VectorIndex } from './types.ts';

/** The native/sgemm addon for this index, or why it cannot run (how to build it included). */
export function loadNativeFlatIp(): { ok: true; addon: SgemmAddon } | { ok: false; reason: string } {
  const native = sgemmAddon();
  return 'addon' in native ? { ok: true, addon: native.addon } : { ok: false, reason: native.reason };
}

/**
 * Exhaustive inner-product search on the native/sgemm addon (innerProducts), the default index.
 * Every score is summed over the dimensions in order from 0 in float32, the product rounded
 * before the add: exactly what faiss's IndexFlatIP computes for one query as Debian's libfaiss
 * 1.7.3 runs it (its fvec_inner_product is a plain scalar loop there), so the scores are the
 * same bits and the hits the same (test/index/parity.test.ts). faiss-node copies the query
 * element by element into C++ and runs a scalar loop whose every add waits for the previous
 * one; this scan sums 32 rows at once in SIMD lanes, each lane in order. Rows are stored in
 * panels of PANEL_ROWS, k-major (the layout the addon's matrix product packs into); a partial
 * last panel is zero-padded and its scores unused.
 */
export class NativeFlatIpIndex implements VectorIndex {
  readonly name = 'native-flat-ip';
  private ids: string[] = [];
  private idSet = new Set<string>();
  private panels: Float32Array;
  private scores: Float32Array;

  constructor(
    private readonly addon: SgemmAddon,
    readonly dim: number,
  ) {
    if (!Number.isInteger(dim) || dim <= 0) throw new Error(`native-flat-ip: dimension must be a positive integer, got ${dim}`);
    this.panels = new Float32Array(dim * PANEL_ROWS);
    this.scores = new Float32Array(PANEL_ROWS);
  }

  get size(): number {
    return this.ids.length;
  }

  add(ids: readonly string[], vectors: readonly Float32Array[]): void {
    checkAdd(this.dim, ids, vectors, this.idSet);
    const d = this.dim;
    const panelFloats = d * PANEL_ROWS;
    const needed = Math.ceil((this.ids.length + ids.length) / PANEL_ROWS) * panelFloats;
    if (needed > this.panels.length) {
      const grown = new Float32Array(Math.max(needed, this.panels.length * 2));
      grown.set(this.panels);
      this.panels = grown;
      this.scores = new Float32Array(grown.length / d);
    }
    for (let i = 0; i < ids.length; i++) {
      const row = this.ids.length;
      const v = vectors[i]!;
      const base = Math.floor(row / PANEL_ROWS) * panelFloats + (row % PANEL_ROWS);
      for (let k = 0; k < d; k++) this.panels[base + k * PANEL_ROWS] = v[k]!;
      this.ids.push(ids[i]!);
      this.idSet.add(ids[i]!);
    }
  }

  search(query: Float32Array, k: number): SearchHit[] {
    checkQuery(this.dim, query, k);
    const n = this.ids.length;
    if (n === 0 || k === 0) return [];
    const used = Math.ceil(n / PANEL_ROWS) * PANEL_ROWS;
    this.addon.innerProducts(query, this.panels.subarray(0, used * this.dim), this.scores.subarray(0, used));
    return topHits(this.scores, this.ids, Math.min(k, n));
  }
}
