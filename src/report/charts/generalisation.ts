import type { ChartDef } from './chart.ts';
import { ChartSkip } from './chart.ts';
import { requireColumns, toLabel, toNumber } from './columns.ts';
import { groupedBarsSpec } from './grouped-bars.ts';
import type { Suite } from '../../table/suites.ts';
import { ownValue } from '../../util/json.ts';

/**
 * R@10 of the retrieval methods and the untuned libraries on each suite, from
 * `retrieval-generalisation` (columns retriever, role, `<suite>:r10`; the suites in column
 * order), each suite in its registry colour (src/table/suites.ts: a fixed suite by its id, the
 * run's own catalog, `synthetic` or `catalog`, in the first suite's). Variants and ablations
 * stay in the table: the chart compares methods.
 */
export const generalisationChart = (suites: readonly Suite[]): ChartDef => ({
  id: 'retrieval-generalisation',
  title: 'Retrieval R@10 on each suite',
  sources: ['retrieval-generalisation'],
  build([[t]]) {
    requireColumns(t!, ['retriever', 'role']);
    const columns = t!.columns.filter((c) => c.key.endsWith(':r10')).map((c) => ({ key: c.key, name: c.header.replace(/ R@10$/, '') }));
    if (columns.length === 0) throw new ChartSkip(`table ${t!.id} has no <suite>:r10 column`);
    const shown = t!.rows.filter((r) => ['default', 'method', 'untuned-library'].includes(toLabel(r.role)));
    const values = shown.flatMap((r) =>
      columns.flatMap((s) => {
        const v = toNumber(ownValue(r, s.key));
        const name = toLabel(r.retriever);
        return v === undefined ? [] : [{ retriever: r.role === 'default' ? `${name} (default)` : name, suite: s.name, recall: v }];
      }),
    );
    const retrievers = [...new Set(values.map((v) => v.retriever))];
    return groupedBarsSpec({
      title: 'Retrieval R@10 on each suite',
      subtitle: ['methods and untuned BM25 libraries; learned parts never trained on the suite they rank'],
      values,
      category: { field: 'retriever', order: retrievers },
      series: {
        field: 'suite',
        order: columns.map((s) => s.name),
        colors: columns.map((c) => suiteColor(suites, c.key.slice(0, -':r10'.length))),
      },
      value: { field: 'recall', title: 'R@10', format: '.3f', axisFormat: '.1f', domain: [0, 1] },
      tooltip: [{ field: 'retriever' }, { field: 'suite' }, { field: 'recall', title: 'R@10', format: '.3f' }],
    });
  },
});

/** A suite's colour by the id in its columns: a fixed suite's own, else (the run's catalog) the first suite's. */
function suiteColor(suites: readonly Suite[], id: string): string {
  return (suites.find((s) => s.data && s.id === id) ?? suites[0]!).color;
}
