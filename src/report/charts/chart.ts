import type { TopLevelSpec } from 'vega-lite';
import type { RunManifest } from '../../results/manifest.ts';
import type { Table } from '../../table/table.ts';

/**
 * One chart of the report set. A chart is built from result tables only (never from the bench's
 * memory), so `npm run report` redraws it from a results directory.
 */
export interface ChartDef {
  id: string;
  title: string;
  /**
   * Table ids the chart reads, in the order `build` receives them. A trailing `*` matches every
   * table whose id starts with the rest (e.g. `threshold-sweep*`); `a|b` matches either. A source
   * with no matching table skips the chart with a visible note.
   */
  sources: string[];
  /** `tables[i]` holds the tables matching `sources[i]` (at least one each). Throw ChartSkip when unusable. */
  build(tables: Table[][], info: RunManifest | undefined): TopLevelSpec;
}

/** Thrown by a spec builder when its table lacks what the chart needs; the reason is shown in the report. */
export class ChartSkip extends Error {}

/** The tables matching one source pattern. */
export function matchSource(pattern: string, tables: readonly Table[]): Table[] {
  const alternatives = pattern.split('|');
  const matches = (id: string, p: string) => (p.endsWith('*') ? id.startsWith(p.slice(0, -1)) : id === p);
  return tables.filter((t) => alternatives.some((p) => matches(t.id, p)));
}

/** A source pattern in words, for "not in the results" notes. */
export function describeSource(pattern: string): string {
  return pattern
    .split('|')
    .map((p) => (p.endsWith('*') ? `no table whose id starts with "${p.slice(0, -1)}"` : `no table "${p}"`))
    .join(' or ')
    .replace(/ or no table/g, ' or');
}
