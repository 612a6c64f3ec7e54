import type { TopLevelSpec } from 'vega-lite';
import { AUTOSIZE, CHART_CONFIG, CHART_HEIGHT, CHART_WIDTH, chartTitle, SCHEMA } from './spec-base.ts';

/** Height of one bar: bars of a group never crowd their value labels. */
const BAR_PX = 12;

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
  /** Where the legend goes, given the plot's height (default: inside, bottom right). */
  legend?: (height: number) => Record<string, unknown>;
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
        legend: {
          direction: 'vertical',
          columns: 1,
          fillColor: 'white',
          padding: 4,
          ...(g.legend ? g.legend(height) : { orient: 'bottom-right' }),
        },
      },
    },
    layer: [
      { mark: { type: 'bar' }, encoding: { tooltip: g.tooltip } },
      {
        mark: { type: 'text', align: 'left', baseline: 'middle', dx: 3, fontSize: 10, color: '#333' },
        encoding: { text: { field: g.value.field, format: g.value.format }, color: { value: '#333' } },
      },
    ],
  } as TopLevelSpec;
}
