import type { TopLevelSpec } from 'vega-lite';
import { AUTOSIZE, CHART_CONFIG, CHART_HEIGHT, CHART_WIDTH, chartTitle, legendColumns, SCHEMA, textWidthPx } from './spec-base.ts';

/**
 * Room for one bar: a bar's value label (font VALUE_FONT_PX, whose box is about 1.2 em tall)
 * never reaches the label or the bar of its neighbour, however long or short the bars.
 */
const BAR_PX = 15;
const VALUE_FONT_PX = 10;

/**
 * Horizontal bars grouped by category (a method, a retriever), one bar per series (a suite, a
 * source) in a fixed colour, each with its value printed at its end: the category names stay
 * level and whole however long they are.
 */
export interface GroupedBars {
  title: string;
  subtitle: string[];
  values: Record<string, unknown>[];
  category: { field: string; order: string[] };
  series: { field: string; order: string[]; colors: string[] };
  /** `format`: the bars' labels (and the axis, unless `axisFormat`). */
  value: { field: string; title: string; format: string; axisFormat?: string; domain?: [number, number] };
  tooltip: { field: string; title?: string; format?: string }[];
}

export function groupedBarsSpec(g: GroupedBars): TopLevelSpec {
  const height = Math.max(CHART_HEIGHT, g.category.order.length * g.series.order.length * BAR_PX);
  return {
    $schema: SCHEMA,
    title: chartTitle(g.title, g.subtitle),
    width: CHART_WIDTH,
    autosize: AUTOSIZE,
    height,
    config: CHART_CONFIG,
    data: { values: g.values },
    encoding: {
      y: { field: g.category.field, type: 'nominal', sort: g.category.order, title: null, axis: { labelLimit: 0 } },
      yOffset: { field: g.series.field, type: 'nominal', sort: g.series.order },
      x: {
        field: g.value.field,
        type: 'quantitative',
        title: g.value.title,
        axis: { format: g.value.axisFormat ?? g.value.format },
        ...(g.value.domain ? { scale: { domain: g.value.domain } } : {}),
      },
      color: {
        field: g.series.field,
        type: 'nominal',
        title: null,
        scale: { domain: g.series.order, range: g.series.colors },
        // Below the axis, never over a bar or a value label.
        legend: {
          orient: 'bottom',
          direction: 'horizontal',
          columns: legendColumns(g.series.order, CHART_WIDTH - textWidthPx(g.category.order, CHART_CONFIG.axis?.labelFontSize as number)),
        },
      },
    },
    layer: [
      { mark: { type: 'bar' }, encoding: { tooltip: g.tooltip } },
      {
        mark: { type: 'text', align: 'left', baseline: 'middle', dx: 3, fontSize: VALUE_FONT_PX, color: '#333' },
        encoding: { text: { field: g.value.field, format: g.value.format }, color: { value: '#333' } },
      },
    ],
  } as TopLevelSpec;
}
