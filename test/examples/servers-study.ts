import type { ChartDef } from '../../src/report/charts/chart.ts';
import { defineStudy } from '../../src/studies/types.ts';
import type { Table } from '../../src/table/table.ts';

/**
 * Tools per server: a study with its table and its chart, the worked example of a study in
 * docs/extending.md. A study reads only its context and returns tables; the bench writes them
 * to results/tables/ and every report renders them. A chart is built from those tables alone.
 * `defineStudy(import.meta.url, …)` records the module: the modules it imports are the study's
 * code, and a run restores its table while none of them changed.
 */
export const serversStudy = defineStudy(import.meta.url, {
  id: 'servers',
  description: 'the tools of each server of the catalog, and their definitions in tokens',
  readsPipelineResults: false,
  needsTasks: false,
  async run(ctx): Promise<Table[]> {
    const rows = ctx.catalog.servers.map((server) => {
      const tools = ctx.catalog.tools.filter((t) => t.server === server);
      return { server, tools: tools.length, tokens: tools.reduce((n, t) => n + ctx.tokens.count(JSON.stringify(t.definition)), 0) };
    });
    return [
      {
        id: 'servers',
        title: 'Tools per server',
        columns: [
          { key: 'server', header: 'server', kind: 'label' },
          { key: 'tools', header: 'tools', kind: 'measured' },
          { key: 'tokens', header: 'definition tokens', kind: 'measured' },
        ],
        rows,
        notes: [`Catalog ${ctx.catalog.name}, tokenizer ${ctx.tokens.tokenizer}; a definition is counted as compact JSON.`],
      },
    ];
  },
});

/** Its chart: one bar per server, from the `servers` table. */
export const serversChart: ChartDef = {
  id: 'servers',
  title: 'Definition tokens per server',
  sources: ['servers'],
  build([tables]) {
    const table = tables![0]!;
    return {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      title: 'Definition tokens per server',
      data: { values: table.rows },
      mark: 'bar',
      encoding: {
        x: { field: 'server', type: 'nominal', title: 'server' },
        y: { field: 'tokens', type: 'quantitative', title: 'definition tokens' },
      },
    };
  },
};
