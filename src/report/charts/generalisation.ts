import type { ChartDef } from './chart.ts';
import { ChartSkip } from './chart.ts';
import { requireColumns, toLabel, toNumber } from './columns.ts';
import { AUTOSIZE, CHART_CONFIG, CHART_HEIGHT, CHART_WIDTH, chartTitle, SCHEMA } from './spec-base.ts';

/**
 * R@10 of the retrieval methods and the untuned libraries on each suite, from
 * `retrieval-generalisation` (columns retriever, role, `<suite>:r10`; the suites in column
 * order). Variants and ablations stay in the table: the chart compares methods.
 */
const BAR_PX = 11;
const SUITE_COLORS = ['#3b6ea8', '#5b9a68', '#c77c2e', '#8a5fb0'];

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
        const v = toNumber(r[s.key]);
        const name = toLabel(r.retriever);
        return v === undefined ? [] : [{ retriever: r.role === 'default' ? `${name} (default)` : name, suite: s.name, recall: v }];
      }),
    );
    const retrievers = [...new Set(values.map((v) => v.retriever))];
    const height = Math.max(CHART_HEIGHT, retrievers.length * suites.length * BAR_PX);
    return {
      $schema: SCHEMA,
      title: chartTitle('Retrieval R@10 on each suite', [
        'methods and untuned BM25 libraries; learned parts never trained on the suite they rank',
      ]),
      width: CHART_WIDTH,
      autosize: AUTOSIZE,
      height,
      config: CHART_CONFIG,
      data: { values },
      encoding: {
        y: { field: 'retriever', type: 'nominal', sort: retrievers, title: null, axis: { labelLimit: 0 } },
        yOffset: { field: 'suite', type: 'nominal', sort: suites.map((s) => s.name) },
        x: { field: 'recall', type: 'quantitative', title: 'R@10', scale: { domain: [0, 1] } },
        color: {
          field: 'suite',
          type: 'nominal',
          title: null,
          scale: { domain: suites.map((s) => s.name), range: SUITE_COLORS.slice(0, suites.length) },
          legend: { orient: 'bottom-right', direction: 'vertical', columns: 1, fillColor: 'white', padding: 4 },
        },
      },
      layer: [
        {
          mark: { type: 'bar' },
          encoding: { tooltip: [{ field: 'retriever' }, { field: 'suite' }, { field: 'recall', title: 'R@10', format: '.3f' }] },
        },
        {
          mark: { type: 'text', align: 'left', baseline: 'middle', dx: 3, fontSize: 9, color: '#333' },
          encoding: { text: { field: 'recall', format: '.3f' }, color: { value: '#333' } },
        },
      ],
    };
  },
};
