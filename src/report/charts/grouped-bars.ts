import type { TopLevelSpec } from 'vega-lite';
import { AUTOSIZE, CHART_CONFIG, CHART_HEIGHT, CHART_WIDTH, chartTitle, legendColumns, SCHEMA, textWidthPx } from './spec-base.ts';
import { ownValue } from '../../util/json.ts';

/**
 * Room for one bar: a bar's value label (font VALUE_FONT_PX, whose box is about 1.2 em tall)
 * never reaches the label or the bar of its neighbour, however long or short the bars.
 */
const BAR_PX = 15;
const VALUE_FONT_PX = 10;
/** Room kept for a negative bar's value label, in characters ("−123.4"). */
const LABEL_CHARS = 7;

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
  const numbers = g.values.map((v) => ownValue(v, g.value.field)).filter((v): v is number => typeof v === 'number');
  const plotPx = CHART_WIDTH - textWidthPx(g.category.order, CHART_CONFIG.axis?.labelFontSize as number) - 20;
  const lo = g.value.domain ? undefined : negativeDomainMin(numbers, Math.max(0, ...numbers), plotPx, LABEL_CHARS);
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
        ...(g.value.domain ? { scale: { domain: g.value.domain } } : lo === undefined ? {} : { scale: { domainMin: lo } }),
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
    layer: [{ mark: { type: 'bar' }, encoding: { tooltip: g.tooltip } }, ...valueLabelLayers(g.value.field, g.value.format, g.values)],
  } as TopLevelSpec;
}

/**
 * The text layers that print each horizontal bar's value just beyond its end: right of a bar that
 * grows to the right of zero, left of one that grows to the left (a negative value), never on
 * the bar itself.
 */
export function valueLabelLayers(field: string, format: string, values: readonly Record<string, unknown>[]) {
  const side = (test: string, align: 'left' | 'right', dx: number) => ({
    transform: [{ filter: test }],
    mark: { type: 'text' as const, align, baseline: 'middle' as const, dx, fontSize: VALUE_FONT_PX, color: '#333' },
    encoding: { text: { field, format }, color: { value: '#333' } },
  });
  const value = `datum[${JSON.stringify(field)}]`;
  // A layer only for a side that has bars: an empty one makes Vega warn of an infinite extent.
  const numbers = values.map((v) => ownValue(v, field)).filter((v): v is number => typeof v === 'number');
  return [
    ...(numbers.some((v) => v >= 0) ? [side(`${value} >= 0`, 'left', 3)] : []),
    ...(numbers.some((v) => v < 0) ? [side(`${value} < 0`, 'right', -3)] : []),
  ];
}

/**
 * The lower end of a value axis whose bars may be negative: zero when none is, else far enough
 * below the smallest value that its label (`labelChars` wide, left of the bar) stays inside the
 * plot (`plotPx` wide, reaching up to `max`). Undefined when no value is negative.
 */
export function negativeDomainMin(values: readonly number[], max: number, plotPx: number, labelChars: number): number | undefined {
  const min = Math.min(...values);
  if (!(min < 0)) return undefined;
  const share = Math.min(0.5, (textWidthPx(['x'.repeat(labelChars)], VALUE_FONT_PX) + 8) / plotPx);
  // Solve lo = min − share · (max − lo): the label's share of the whole axis lies below min.
  return (min - share * max) / (1 - share);
}
