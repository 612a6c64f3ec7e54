/**
 * The suites the default bench measures the main methods on, and the ids of their Table 3
 * halves. Studies write these tables; the findings block, the charts and the gap notes read
 * them by these ids only.
 */
export interface Suite {
  id: 'synthetic-120' | 'real-six';
  /** Short name for tables and charts. */
  name: string;
  measuredTable: string;
  projectedTable: string;
  qualityTable: string;
  /** The host tool search table beside the papers' methods. */
  hostSearchTable: string;
  /** The code mode table: definitions, tool results and code of the code-execution methods. */
  codeModeTable: string;
}

export const SYNTHETIC_SUITE: Suite = {
  id: 'synthetic-120',
  name: 'synthetic-120',
  measuredTable: 'table3-measured',
  projectedTable: 'table3-projected',
  qualityTable: 'table4-projected',
  hostSearchTable: 'host-search',
  codeModeTable: 'code-mode',
};

export const REAL_SUITE: Suite = {
  id: 'real-six',
  name: 'real six servers',
  measuredTable: 'table3-measured-real',
  projectedTable: 'table3-projected-real',
  qualityTable: 'table4-projected-real',
  hostSearchTable: 'host-search-real',
  codeModeTable: 'code-mode-real',
};

export const SUITES: readonly Suite[] = [SYNTHETIC_SUITE, REAL_SUITE];

/**
 * A suite's name in a run on `catalog`: the first suite's tables hold the run's own catalog
 * (synthetic-120 by default, a user's with `--catalog`); the others are fixed sets.
 */
export function suiteNameIn(suite: Suite, catalog: string | undefined): string {
  return suite === SYNTHETIC_SUITE && catalog ? catalog : suite.name;
}
