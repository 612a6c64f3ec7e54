/**
 * The catalog sizes N the scaling study sweeps. The default stops at N = 1,000, the largest
 * size the paper reports (§7.4), so the default bench stays within its speed and memory
 * budgets; `bench --scaling-sizes` adds larger points, at a cost in time and memory
 * beyond those budgets (docs/performance.md). Kept apart from the study so
 * the CLI can check the option without loading the study.
 */
export const DEFAULT_SCALING_SIZES: readonly number[] = [30, 60, 120, 250, 500, 1000];
/** --quick (CI): the bench catalog's own size and two around it. */
export const QUICK_SCALING_SIZES: readonly number[] = [30, 120, 500];
/** The largest N the generator is asked for (each N > 120 replicates the six servers' calibrated instances). */
export const MAX_SCALING_SIZE = 100_000;

/** `--scaling-sizes`: distinct whole numbers from 1 to MAX_SCALING_SIZE, comma-separated. */
export function parseScalingSizes(value: string): number[] {
  const sizes = value.split(',').map((v) => (v.trim() === '' ? NaN : Number(v.trim())));
  const bad = sizes.find((n) => !Number.isInteger(n) || n < 1 || n > MAX_SCALING_SIZE);
  if (bad !== undefined) throw new Error(`expected comma-separated whole numbers from 1 to ${MAX_SCALING_SIZE.toLocaleString('en-US')}`);
  if (new Set(sizes).size !== sizes.length) throw new Error('expected distinct sizes (one is repeated)');
  return sizes;
}
