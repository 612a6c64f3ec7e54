/**
 * The registered studies' ids, in the order the bench runs them and prints their tables. Kept
 * apart from ./registry.ts (which loads every study) so the command line can check `--studies`
 * without loading them; the registry's type requires a study for each id and no other.
 */
export const STUDY_IDS = Object.freeze([
  'projection',
  'real-suite',
  'host-search',
  'search-calibration',
  'scaling',
  'adversarial',
  'prompt-caching',
  'adol',
  'threshold-calibration',
  'retrieval',
  'router-latency',
  'aacp',
  'kv-schema',
] as const);

export type StudyId = (typeof STUDY_IDS)[number];
