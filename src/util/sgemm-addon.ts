import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The functions of native/sgemm (native/sgemm/sgemm.c), built by npm's postinstall (scripts/build-sgemm.mjs). */
export interface SgemmAddon {
  /** C = A · B (A: m×k, B: k×n, row-major), byte offsets into `memory`; sums over k in order. */
  sgemm(memory: ArrayBuffer, aOffset: number, bOffset: number, cOffset: number, m: number, k: number, n: number): void;
  /** Per batch C = A · B (B given as N×K when transposeB is 1), in tfjs wasm's blocked order. */
  batchMatmul(
    memory: ArrayBuffer,
    aOffset: number,
    bOffset: number,
    cOffset: number,
    batch: number,
    m: number,
    k: number,
    n: number,
    transposeB: 0 | 1,
  ): void;
  /**
   * out[j] = query · row j for rows stored PANEL_ROWS to a panel, k-major (panels.length is a
   * multiple of PANEL_ROWS × query.length; out has one float per row); sums over k in order.
   */
  innerProducts(query: Float32Array, panels: Float32Array, out: Float32Array): void;
  /** The kernels (one per instruction set) this CPU runs, widest first. */
  kernels(): string[];
  /** This thread's calls run on `name` from now on (one of kernels()). */
  useKernel(name: string): void;
  /** The kernel this thread's calls run on. */
  kernel(): string;
  /** The calling thread's CPU time in seconds (unlike wall time, not inflated by other processes). */
  threadCpuSeconds(): number;
}

/** Rows per panel of innerProducts (NR in sgemm.c). */
export const PANEL_ROWS = 32;

const ADDON_PATH = '../../native/sgemm/build/sgemm.node';

/** The built addon's file (whether or not it exists). */
export const SGEMM_ADDON_FILE = fileURLToPath(new URL(ADDON_PATH, import.meta.url));

let loaded: { addon: SgemmAddon } | { reason: string } | undefined;

/** The built addon (loaded once per thread), or why it cannot be used: one line, with how to build it. */
export function sgemmAddon(): { addon: SgemmAddon } | { reason: string } {
  loaded ??= (() => {
    try {
      return { addon: createRequire(import.meta.url)(ADDON_PATH) as SgemmAddon };
    } catch (err) {
      const why = (err instanceof Error ? err.message : String(err)).split('\n')[0]!;
      return { reason: `native/sgemm is not built (${why}); run: node scripts/build-sgemm.mjs` };
    }
  })();
  return loaded;
}
