/**
 * Wilson score interval of a proportion (95% by default): well behaved for small samples and
 * for 0 or n successes, where the normal approximation gives impossible bounds. Live runs are
 * small (tens of tasks), which is why it is used there.
 */
export function wilsonInterval(successes: number, n: number, z = 1.959964): { p: number; low: number; high: number } {
  if (n <= 0) return { p: NaN, low: NaN, high: NaN };
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
