import type { ChartDef } from './chart.ts';
import { axisTitle, cellText, requireColumns, toLabel, toNumber } from './columns.ts';
import { REAL_SUITE, SYNTHETIC_SUITE, suiteNameIn, type Suite } from '../../table/suites.ts';
import { groupedBarsSpec } from './grouped-bars.ts';
import { SOURCE_COLORS, SUITE_COLORS } from './spec-base.ts';

/**
 * Tool tokens per turn by method on each suite, from `table3-measured` and, when the run has
 * it, `table3-measured-real` (columns method, toolTokens; the published figure, `pubTokens`
 * such as "47,312 ± 210", is drawn beside them when present). Horizontal bars: the method
 * names stay level and whole.
 */
const PUBLISHED = 'published (paper testbed)';

export const toolTokensChart: ChartDef = {
  id: 'tool-tokens-per-turn',
  title: 'Tool tokens per turn by method, on each suite',
  // The real suite's half when the run has it (the default bench); a user's catalog has the first only.
  sources: [`${SYNTHETIC_SUITE.measuredTable}|${REAL_SUITE.measuredTable}`],
  build([tables], info) {
    // The first suite is the run's catalog: synthetic-120 by default, a user's with --catalog.
    const measured = (suite: Suite) => `${suiteNameIn(suite, info?.catalog.name)} (measured)`;
    const series = [
      { name: measured(SYNTHETIC_SUITE), color: SOURCE_COLORS.measured },
      { name: measured(REAL_SUITE), color: SUITE_COLORS.real },
      { name: PUBLISHED, color: SOURCE_COLORS.published },
    ];
    const values = tables!.flatMap((t) => {
      requireColumns(t, ['method', 'toolTokens']);
      const measuredAs = measured(t.id === REAL_SUITE.measuredTable ? REAL_SUITE : SYNTHETIC_SUITE);
      return t.rows.flatMap((r) => {
        const method = toLabel(r.method);
        const measured = toNumber(r.toolTokens);
        const published = toNumber(r.pubTokens);
        return [
          ...(measured === undefined
            ? []
            : [{ method, source: measuredAs, tokens: measured, figure: cellText(t, 'toolTokens', r.toolTokens), table: t.id }]),
          ...(published === undefined
            ? []
            : [{ method, source: PUBLISHED, tokens: published, figure: cellText(t, 'pubTokens', r.pubTokens), table: t.id }]),
        ];
      });
    });
    const shown = series.filter((s) => values.some((v) => v.source === s.name));
    const methods = [...new Set(values.map((v) => v.method))];
    const suites = shown.filter((s) => s.name !== PUBLISHED).map((s) => s.name.replace(' (measured)', ''));
    const published = shown.some((s) => s.name === PUBLISHED);
    const t = tables![0]!;
    return groupedBarsSpec({
      title: 'Tool tokens per turn by method, on each suite',
      subtitle: [
        `measured by this harness on ${suites.join(' and ')}`,
        ...(published ? ["published = the paper's Table 3, on its own testbed"] : []),
      ],
      values,
      category: { field: 'method', order: methods },
      series: { field: 'source', order: shown.map((s) => s.name), colors: shown.map((s) => s.color) },
      value: { field: 'tokens', title: axisTitle(t, 'toolTokens'), format: ',.0f' },
      tooltip: [{ field: 'method' }, { field: 'source' }, { field: 'figure', title: axisTitle(t, 'toolTokens') }, { field: 'table' }],
    });
  },
};
