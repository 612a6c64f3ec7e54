import type { TopLevelSpec } from 'vega-lite';
import type { RunManifest } from '../../results/manifest.ts';
import type { Table } from '../../table/table.ts';
import type { ChartDef } from './chart.ts';
import { axisTitle, cellText, requireColumns, toLabel, toNumber } from './columns.ts';
import { suiteNameIn, type Suite } from '../../table/suites.ts';
import { AUTOSIZE, CHART_CONFIG, CHART_WIDTH, chartTitle, legendColumns, SCHEMA, SOURCE_COLORS, textWidthPx } from './spec-base.ts';

/**
 * Tool tokens per turn by method on each suite with main tables (src/table/suites.ts), from
 * `table3-measured` and, when the run has them, the fixed suites' (`table3-measured-real`;
 * columns method, toolTokens; the published figure, `pubTokens` such as "47,312 ± 210", is
 * drawn beside them when present), each suite in its registry colour. A dot plot on a log scale,
 * one row per method: the method names stay level and whole, and the chart stays short however
 * many methods ran (the exact figures are in each mark's tooltip and in the table).
 */
const PUBLISHED = 'published (paper testbed)';
/** One row per method: a dot plot stays short with many methods, so the page's first chart fits its first screen. */
const ROW_PX = 13;
/** A shape per series besides its colour, so marks of equal value stay told apart. */
const SHAPES = ['circle', 'square', 'diamond', 'triangle-up', 'triangle-down', 'cross'];

/** The chart over these suites (the registry's in the report set). */
export function toolTokensChart(suites: readonly Suite[]): ChartDef {
  const shown = suites.filter((s) => s.mainTables);
  return {
    id: 'tool-tokens-per-turn',
    title: 'Tool tokens per turn by method, on each suite',
    // The fixed suites' halves when the run has them (the default bench); a user's catalog has the first only.
    sources: [shown.map((s) => s.measuredTable).join('|')],
    build: ([tables], info) => toolTokensSpec(shown, tables!, info),
  };
}

function toolTokensSpec(ofSuites: readonly Suite[], tables: readonly Table[], info: RunManifest | undefined): TopLevelSpec {
  // The first suite is the run's catalog: synthetic-120 by default, a user's with --catalog.
  const measured = (suite: Suite) => `${suiteNameIn(suite, info?.catalog.name)} (measured)`;
  const series = [...ofSuites.map((s) => ({ name: measured(s), color: s.color })), { name: PUBLISHED, color: SOURCE_COLORS.published }];
  const values = tables.flatMap((t) => {
    requireColumns(t, ['method', 'toolTokens']);
    const measuredAs = measured(ofSuites.find((s) => s.measuredTable === t.id)!);
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
  const t = tables[0]!;
  const tokensTitle = axisTitle(t, 'toolTokens');
  return {
    $schema: SCHEMA,
    title: chartTitle(
      'Tool tokens per turn by method, on each suite',
      `measured by this harness on ${suites.join(' and ')}${published ? "; published: the paper's Table 3, its testbed" : ''}`,
    ),
    width: CHART_WIDTH,
    autosize: AUTOSIZE,
    height: methods.length * ROW_PX, // fixed, not a step: autosize fit-x needs a continuous height
    config: CHART_CONFIG,
    data: { values },
    mark: { type: 'point', filled: true, size: 40, opacity: 0.9 },
    encoding: {
      y: { field: 'method', type: 'nominal', sort: methods, title: null, axis: { labelLimit: 0 } },
      // Each suite a little apart within its method's row: equal figures stay two visible marks.
      yOffset: { field: 'source', type: 'nominal', sort: shown.map((s) => s.name) },
      x: {
        field: 'tokens',
        type: 'quantitative',
        scale: { type: 'log', nice: false, padding: 8 },
        title: `${tokensTitle} (log scale)`,
        axis: { format: '~s', labelSeparation: 8, labelFlush: true, labelBound: true },
      },
      color: {
        field: 'source',
        type: 'nominal',
        title: null,
        scale: { domain: shown.map((s) => s.name), range: shown.map((s) => s.color) },
        legend: {
          orient: 'bottom',
          direction: 'horizontal',
          columns: legendColumns(
            shown.map((s) => s.name),
            CHART_WIDTH - textWidthPx(methods, CHART_CONFIG.axis?.labelFontSize as number),
          ),
        },
      },
      shape: { field: 'source', type: 'nominal', scale: { domain: shown.map((s) => s.name), range: SHAPES.slice(0, shown.length) } },
      tooltip: [{ field: 'method' }, { field: 'source' }, { field: 'figure', title: tokensTitle }, { field: 'table' }],
    },
  };
}
