/**
 * Measurement parameters (not projections): they turn measured token counts into the
 * paper's deterministic ratios. Change them here; results record the values used.
 */
export const MEASUREMENT_PARAMS = {
  /** The turn (1-based) at which rho is read for long-horizon tasks (paper §6.5). */
  rhoTurn: 30,
  /** Context window used for the plain "share of the window spent on tools" (tokens; 200k as in the paper's Table 1). */
  contextWindow: 200_000,
  /** Seeds of the main run (paper: mean of 3 seeds). */
  seeds: [42, 43, 44],
} as const;
