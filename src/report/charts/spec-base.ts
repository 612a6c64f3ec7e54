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
  // Vega hides axis labels that would overlap (every other one; greedily on log scales), by widths
  // it estimates where no canvas is loaded (the static SVG and PNG); the browser's font may run
  // wider: a 6 px gap keeps such neighbours apart.
  axis: { labelFontSize: 11, titleFontSize: 12, gridColor: '#e6e6e6', labelSeparation: 6 },
  legend: { labelFontSize: 11, titleFontSize: 11, orient: 'bottom', direction: 'horizontal', columns: 3, labelLimit: 400 },
  view: { stroke: null },
};

/**
 * Columns of a bottom legend so that its widest row stays inside `widthPx` (Vega neither wraps a
 * legend nor counts it when fitting the chart's width, so a wide one is cut off). A bottom legend
 * starts at the plot's left edge: pass the plot's width when axis labels take room on its left.
 */
export function legendColumns(labels: readonly string[], widthPx = CHART_WIDTH): number {
  const entryPx = textWidthPx(labels, CHART_CONFIG.legend?.labelFontSize as number) + 40; // + symbol and gap
  return Math.max(1, Math.min(labels.length, Math.floor(widthPx / entryPx)));
}

/** The widest of these texts at this font size, estimated at 0.62 em per character (DejaVu Sans runs wide). */
export function textWidthPx(texts: readonly string[], fontPx: number): number {
  return Math.max(0, ...texts.map((t) => t.length)) * fontPx * 0.62;
}

/** Colours: measured vs published (vs projected) the same in every chart and in the HTML legend. */
export const SOURCE_COLORS = { measured: '#3b6ea8', published: '#9a9a9a', projected: '#d9822b' } as const;
