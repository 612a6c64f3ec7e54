/**
 * Collisions between a chart's texts (axis labels, value labels, legend entries, titles) and
 * between a text and a bar, from the geometry Chromium measured: each item is the four corners
 * of its box in page pixels, so a rotated label is its true slanted box, not the axis-aligned
 * box around it (which would make angled neighbours look as if they touched).
 */
export type Quad = readonly [x: number, y: number][];

export interface ChartText {
  text: string;
  quad: Quad;
}

export interface ChartGeometry {
  id: string;
  /** Which drawing was measured: the interactive one vega-embed drew, or the static SVG (the PNG's source). */
  view: 'live' | 'static';
  texts: ChartText[];
  /** The bars (rect marks) of the chart. */
  bars: Quad[];
  /** The drawing's own box: a text reaching past it is cut off. */
  frame: { left: number; top: number; right: number; bottom: number };
}

/** Two boxes collide when they overlap by more than this many pixels in every direction (anti-aliasing). */
const OVERLAP_TOLERANCE_PX = 1;

/**
 * How deep two convex quadrilaterals overlap (separating-axis test): the smallest overlap of
 * their projections over the edge normals of both; ≤ 0 when they are apart.
 */
export function overlapDepth(a: Quad, b: Quad): number {
  let depth = Infinity;
  for (const quad of [a, b]) {
    for (let i = 0; i < quad.length; i++) {
      const [x0, y0] = quad[i]!;
      const [x1, y1] = quad[(i + 1) % quad.length]!;
      const length = Math.hypot(x1 - x0, y1 - y0);
      if (length === 0) continue;
      const [nx, ny] = [(y0 - y1) / length, (x1 - x0) / length];
      const project = (q: Quad) => q.map(([x, y]) => x * nx + y * ny);
      const pa = project(a);
      const pb = project(b);
      depth = Math.min(depth, Math.min(Math.max(...pa), Math.max(...pb)) - Math.max(Math.min(...pa), Math.min(...pb)));
      if (depth <= 0) return depth;
    }
  }
  return depth;
}

/** One line per colliding pair of texts, per text lying on a bar, and per text cut off at the drawing's edge. */
export function textCollisions(chart: ChartGeometry, tolerance = OVERLAP_TOLERANCE_PX): string[] {
  const out: string[] = [];
  const where = `chart ${chart.id} (${chart.view === 'live' ? 'interactive' : 'static SVG'})`;
  const { texts } = chart;
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      if (overlapDepth(texts[i]!.quad, texts[j]!.quad) > tolerance)
        out.push(`${where}: text "${texts[i]!.text}" overlaps text "${texts[j]!.text}"`);
    }
    const onBars = chart.bars.filter((bar) => overlapDepth(texts[i]!.quad, bar) > tolerance).length;
    if (onBars) out.push(`${where}: text "${texts[i]!.text}" lies on ${onBars === 1 ? 'a bar' : `${onBars} bars`}`);
    const f = chart.frame;
    if (
      texts[i]!.quad.some(
        ([x, y]) => x < f.left - tolerance || x > f.right + tolerance || y < f.top - tolerance || y > f.bottom + tolerance,
      )
    )
      out.push(`${where}: text "${texts[i]!.text}" is cut off at the edge of the chart`);
  }
  return out;
}
