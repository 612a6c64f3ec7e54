import type { ChartDef } from './chart.ts';
import { ChartSkip } from './chart.ts';
import { requireColumns, toLabel, toNumber } from './columns.ts';
import { groupedBarsSpec } from './grouped-bars.ts';
import { SOURCE_COLORS, SUITE_COLORS } from './spec-base.ts';
import { ownValue } from '../../util/json.ts';

/**
 * R@10 of the retrieval methods and the untuned libraries on each suite, from
 * `retrieval-generalisation` (columns retriever, role, `<suite>:r10`; the suites in column
 * order). Variants and ablations stay in the table: the chart compares methods.
 */
/** Suites in table order (synthetic or the run's catalog, real, LiveMCPBench): the colours every chart gives them. */
const SERIES_COLORS = [SOURCE_COLORS.measured, SUITE_COLORS.real, SUITE_COLORS.livemcpbench];

export const generalisationChart: ChartDef = {
  id: 'retrieval-generalisation',
  title: 'Retrieval R@10 on each suite',
  sources: ['retrieval-generalisation'],
  build([[t]]) {
    requireColumns(t!, ['retriever', 'role']);
    const suites = t!.columns.filter((c) => c.key.endsWith(':r10')).map((c) => ({ key: c.key, name: c.header.replace(/ R@10$/, '') }));
    if (suites.length === 0) throw new ChartSkip(`table ${t!.id} has no <suite>:r10 column`);
    const shown = t!.rows.filter((r) => ['default', 'method', 'untuned-library'].includes(toLabel(r.role)));
    const values = shown.flatMap((r) =>
      suites.flatMap((s) => {
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
      series: { field: 'suite', order: suites.map((s) => s.name), colors: SERIES_COLORS.slice(0, suites.length) },
      value: { field: 'recall', title: 'R@10', format: '.3f', axisFormat: '.1f', domain: [0, 1] },
      tooltip: [{ field: 'retriever' }, { field: 'suite' }, { field: 'recall', title: 'R@10', format: '.3f' }],
    });
  },
};
