import type { TopLevelSpec } from 'vega-lite';

/**
 * Shared look of every chart: size, fonts and a white background (the PNG must not be
 * transparent). Every chart is CHART_WIDTH wide in all (axes, labels and legend included), so
 * charts side by side on the page are drawn at the same scale.
 */
export const CHART_WIDTH = 640;
export const CHART_HEIGHT = 300;
export const AUTOSIZE: TopLevelSpec['autosize'] = { type: 'fit-x', contains: 'padding' };

export const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

export function chartTitle(text: string, subtitle?: string | string[]): TopLevelSpec['title'] {
  return subtitle ? { text, subtitle, anchor: 'start', subtitleColor: '#555' } : { text, anchor: 'start' };
}

export const CHART_CONFIG: NonNullable<TopLevelSpec['config']> = {
  background: 'white',
  font: 'DejaVu Sans, Helvetica, Arial, sans-serif',
  title: { fontSize: 14, subtitleFontSize: 11 },
  axis: { labelFontSize: 11, titleFontSize: 12, gridColor: '#e6e6e6' },
  legend: { labelFontSize: 11, titleFontSize: 11, orient: 'bottom', direction: 'horizontal', columns: 3, labelLimit: 400 },
  view: { stroke: null },
};

/** Colours: measured vs published (vs projected) the same in every chart and in the HTML legend. */
export const SOURCE_COLORS = { measured: '#3b6ea8', published: '#9a9a9a', projected: '#d9822b' } as const;

/** The suites' bars beside the synthetic suite's (SOURCE_COLORS.measured), the same in every chart. */
export const SUITE_COLORS = { real: '#5b9a68', livemcpbench: '#c77c2e' } as const;
