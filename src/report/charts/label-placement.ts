/**
 * Where to put the name beside each point of a scatter chart so that it covers no other point
 * and no other name: Vega-Lite has no label-collision option, so the side is chosen here, from
 * an estimate of the plot's pixels (text width ≈ 0.6 em per character).
 */
export type LabelSide = 'right-above' | 'right-below' | 'left-above' | 'left-below';

export const LABEL_SIDES: readonly LabelSide[] = ['right-above', 'right-below', 'left-above', 'left-below'];

/** Mark properties of the text for each side (offsets from the point, in pixels). */
export const LABEL_MARK: Record<LabelSide, { align: 'left' | 'right'; dx: number; dy: number; baseline: 'bottom' | 'top' }> = {
  'right-above': { align: 'left', dx: 7, dy: -3, baseline: 'bottom' },
  'right-below': { align: 'left', dx: 7, dy: 3, baseline: 'top' },
  'left-above': { align: 'right', dx: -7, dy: -3, baseline: 'bottom' },
  'left-below': { align: 'right', dx: -7, dy: 3, baseline: 'top' },
};

export interface PlacedPoint {
  /** Position in plot pixels (x to the right, y down). */
  x: number;
  y: number;
  label: string;
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * A side for each point, in order: the first of LABEL_SIDES whose box stays inside the plot and
 * overlaps no point (radius `r`) and no label placed before it; when none is free, the side with
 * the fewest overlaps (leaving the plot counts as one).
 */
export function placeLabels(points: readonly PlacedPoint[], plot: { width: number; height: number }, fontSize: number, r = 6): LabelSide[] {
  const placed: Box[] = [];
  const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
  const pointBoxes = points.map((p) => ({ x0: p.x - r, y0: p.y - r, x1: p.x + r, y1: p.y + r }));
  return points.map((p, i) => {
    const width = p.label.length * fontSize * 0.6;
    const boxOf = (side: LabelSide): Box => {
      const m = LABEL_MARK[side];
      const x0 = m.align === 'left' ? p.x + m.dx : p.x + m.dx - width;
      const y0 = m.baseline === 'bottom' ? p.y + m.dy - fontSize : p.y + m.dy;
      return { x0, y0, x1: x0 + width, y1: y0 + fontSize };
    };
    const clashes = (side: LabelSide) => {
      const b = boxOf(side);
      const outside = b.x0 < 0 || b.x1 > plot.width || b.y0 < 0 || b.y1 > plot.height ? 1 : 0;
      return outside + pointBoxes.filter((q, j) => j !== i && overlaps(b, q)).length + placed.filter((q) => overlaps(b, q)).length;
    };
    const scores = LABEL_SIDES.map(clashes);
    const side = LABEL_SIDES[scores.indexOf(Math.min(...scores))]!;
    placed.push(boxOf(side));
    return side;
  });
}
