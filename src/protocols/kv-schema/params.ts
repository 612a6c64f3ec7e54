/**
 * Thresholds of schema self-evolution, all from draft-zhou-structured-data-schema-interaction-00
 * §6.2 (the draft gives most as "e.g." defaults). Where the draft gives no number, the value is
 * this harness's choice and says so.
 */
export const EVOLUTION_PARAMS = {
  /** §6.2.1 Semantic Vector Clustering: "cosine similarity >= 0.85". */
  clusterSimilarity: 0.85,
  /** §6.2.1 Heat Decay Counting: "exponential decay with a half-life of 24 hours". */
  heatHalfLifeHours: 24,
  /** §6.2.1: "increases by a fixed increment" — no value given; HARNESS CHOICE. */
  heatIncrement: 10,
  /** §6.2.1 Threshold-Based Triggering: "e.g., 50 accumulated heat units". */
  heatThreshold: 50,
  /** §6.2.1: ">= 5 unique client agents". Counted over the cluster's lifetime (the draft's window wording is ambiguous). */
  minDistinctClients: 5,
  /** §6.2.1: ">= 10 total occurrences within a 7-day window". */
  minOccurrencesInWindow: 10,
  occurrenceWindowDays: 7,
  /** §6.2.3 Schema Convergence Guard: "no more than 10" active experimental keys per scenario. */
  maxExperimentalKeys: 10,
  /** §6.2.3 Trial Period: "default 7 days". */
  trialDays: 7,
  /** §6.2.3 Promotion: usage >= 15%, alignment >= 80%, type correctness >= 90%. */
  promote: { usage: 0.15, alignment: 0.8, typeCorrectness: 0.9 },
  /** §6.2.3 Deprecation: usage < 5% OR alignment < 60% OR type correctness < 70%. */
  deprecate: { usage: 0.05, alignment: 0.6, typeCorrectness: 0.7 },
  /** §6.2.3: deprecated keys stay for "a grace period (default 14 days)". */
  deprecationGraceDays: 14,
  /** §6.2.3 Withdrawal: accepted for "an additional backward-compatibility window (default 30 days)". */
  withdrawalWindowDays: 30,
  /** §6.2.3 Evaluation Metrics: "observation window (default 30 days)"; used as the patch expiration. */
  observationWindowDays: 30,
} as const;

export type EvolutionParams = {
  -readonly [K in keyof typeof EVOLUTION_PARAMS]: (typeof EVOLUTION_PARAMS)[K] extends object
    ? { -readonly [J in keyof (typeof EVOLUTION_PARAMS)[K]]: number }
    : number;
};

export const EVOLUTION_PARAMS_SOURCE =
  'draft-zhou-structured-data-schema-interaction-00 §6.2.1 (pool, trigger) and §6.2.3 (lifecycle, convergence guard)';
