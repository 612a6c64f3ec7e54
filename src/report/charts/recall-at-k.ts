import type { ChartDef } from './chart.ts';
import { ChartSkip } from './chart.ts';
import { hasColumns, toLabel, toNumber } from './columns.ts';
import type { Suite } from '../../table/suites.ts';
import { CHART_CONFIG, CHART_WIDTH, chartTitle, SCHEMA } from './spec-base.ts';

const KS = [1, 3, 5, 10, 20] as const;

/**
 * Recall@k per retriever, one panel per task set of a suite with main tables (src/table/suites.ts:
 * synthetic tasks, real query set).
 *
 * Expected tables `retrieval-synthetic` and/or the fixed suites' (`retrieval-real`;
 * src/retrieval/tables.ts), one row per retriever:
 *   retriever  label     name (the default marked "(default)")
 *   r1 … r20   measured  recall@1, 3, 5, 10, 20 in 0 … 1
 */
export const recallAtKChart = (suites: readonly Suite[]): ChartDef => ({
  id: 'retrieval-recall-at-k',
  title: 'Recall@k per retriever',
  sources: [
    suites
      .filter((s) => s.mainTables)
      .map((s) => s.retrievalTable)
      .join('|'),
  ],
  build([tables]) {
    const usable = tables!.filter((t) => hasColumns(t, ['retriever', ...KS.map((k) => `r${k}`)]));
    if (usable.length === 0) throw new ChartSkip('no retrieval table has the columns retriever and r1 … r20');
    const values = usable.flatMap((t) =>
      t.rows.flatMap((r) =>
        KS.map((k) => ({
          set: panelName(suites.find((s) => s.retrievalTable === t.id)),
          retriever: toLabel(r.retriever),
          k,
          recall: toNumber(r[`r${k}`]),
        })).filter((v) => v.recall !== undefined),
      ),
    );
    // Two panels (synthetic and real) side by side, or more; one panel alone gets the full chart width.
    const panels = new Set(values.map((v) => v.set)).size;
    return {
      $schema: SCHEMA,
      title: chartTitle('Recall@k per retriever', 'share of a turn’s needed tools in the top k, mean over tool turns'),
      config: CHART_CONFIG,
      data: { values },
      facet: { column: { field: 'set', type: 'nominal', title: null } },
      spec: {
        width: panels > 1 ? 300 : CHART_WIDTH - 140,
        height: 260,
        mark: { type: 'line', point: true, strokeWidth: 2 },
        encoding: {
          x: { field: 'k', type: 'ordinal', title: 'k', axis: { labelAngle: 0 } },
          y: { field: 'recall', type: 'quantitative', title: 'recall@k', scale: { domain: [0, 1] } },
          // Up to ~12 retrievers: a 20-colour scheme keeps every line distinct.
          color: { field: 'retriever', type: 'nominal', title: 'retriever', scale: { scheme: 'tableau20' } },
          tooltip: [{ field: 'set' }, { field: 'retriever' }, { field: 'k' }, { field: 'recall', format: '.3f' }],
        },
      },
    };
  },
});

/** A panel's name: the run's own tasks, or a fixed suite's task set. */
function panelName(suite: Suite | undefined): string {
  return suite?.data ? suite.data.taskSetName.replace(/^the /, '') : 'synthetic tasks';
}
