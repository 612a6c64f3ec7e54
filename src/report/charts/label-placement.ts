import { textWidthPx } from './spec-base.ts';

/**
 * Where to put the name beside each point of a scatter chart so that it covers no other point
 * and no other name and stays inside the plot: Vega-Lite has no label-collision option, so the
 * side is chosen here, from the points' pixel positions (text width as spec-base estimates it).
 * A point whose name fits nowhere gets none: the chart lists it instead.
 */
type NearSide = 'right-above' | 'right-below' | 'left-above' | 'left-below' | 'above' | 'below';
/** Beside the point, or (`far-`) a little further off with a leader line back to the point. */
export type LabelSide = NearSide | `far-${NearSide}`;

interface LabelMark {
  align: 'left' | 'right' | 'center';
  dx: number;
  dy: number;
  baseline: 'bottom' | 'top';
}

const NEAR: Record<NearSide, LabelMark> = {
  'right-above': { align: 'left', dx: 7, dy: -3, baseline: 'bottom' },
  'right-below': { align: 'left', dx: 7, dy: 3, baseline: 'top' },
  'left-above': { align: 'right', dx: -7, dy: -3, baseline: 'bottom' },
  'left-below': { align: 'right', dx: -7, dy: 3, baseline: 'top' },
  above: { align: 'center', dx: 0, dy: -10, baseline: 'bottom' },
  below: { align: 'center', dx: 0, dy: 10, baseline: 'top' },
};
const NEAR_SIDES = Object.keys(NEAR) as NearSide[];
/** How much further a far label sits than its near side, in pixels (x for the side ones, y for all). */
const FAR_DX = 16;
const FAR_DY = 16;

/** The sides tried, in order of preference: every side beside the point, then every far one. */
export const LABEL_SIDES: readonly LabelSide[] = [...NEAR_SIDES, ...NEAR_SIDES.map((s) => `far-${s}` as const)];

/** Mark properties of the text for each side (offsets from the point, in pixels); a far side has a leader line. */
export const LABEL_MARK = Object.fromEntries([
  ...NEAR_SIDES.map((s) => [s, NEAR[s]]),
  ...NEAR_SIDES.map((s) => {
    const m = NEAR[s];
    const sx = m.align === 'left' ? 1 : m.align === 'right' ? -1 : 0;
    const sy = m.baseline === 'bottom' ? -1 : 1;
    return [`far-${s}`, { ...m, dx: m.dx + sx * FAR_DX, dy: m.dy + sy * FAR_DY }];
  }),
]) as Record<LabelSide, LabelMark>;

/** Where a far label's leader line ends, as offsets from the point (at the label's near edge); null beside the point. */
export function leaderEnd(side: LabelSide): { dx: number; dy: number } | null {
  if (!side.startsWith('far-')) return null;
  const m = LABEL_MARK[side];
  return { dx: m.dx - (m.align === 'left' ? 2 : m.align === 'right' ? -2 : 0), dy: m.dy };
}

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

/** Pixels kept free around each name: the estimate of a text's width is not exact. */
const GAP_PX = 3;
/** Points closer than this many pixels are drawn as one. */
const COINCIDENT_PX = 3;

/**
 * A side for each point, or null when its name fits nowhere. Names are placed in `order` (the
 * points that matter most first; default: as given): each takes the first of LABEL_SIDES whose
 * box stays inside the plot and overlaps no point (radius `r`) and no name placed before it.
 */
export function placeLabels(
  points: readonly PlacedPoint[],
  plot: { width: number; height: number },
  fontSize: number,
  order: readonly number[] = points.map((_, i) => i),
  r = 6,
): (LabelSide | null)[] {
  const placed: Box[] = [];
  const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
  const pointBoxes = points.map((p) => ({ x0: p.x - r, y0: p.y - r, x1: p.x + r, y1: p.y + r }));
  // A point drawn on the same spot (closer than COINCIDENT_PX) is no obstacle: both share the name's side.
  const apart = (i: number, j: number) => Math.hypot(points[i]!.x - points[j]!.x, points[i]!.y - points[j]!.y) >= COINCIDENT_PX;
  const sides: (LabelSide | null)[] = points.map(() => null);
  for (const i of order) {
    const p = points[i]!;
    const width = textWidthPx([p.label], fontSize);
    const height = fontSize * 1.2;
    const boxOf = (side: LabelSide): Box => {
      const m = LABEL_MARK[side];
      const left = m.align === 'left' ? p.x + m.dx : m.align === 'right' ? p.x + m.dx - width : p.x - width / 2;
      const top = m.baseline === 'bottom' ? p.y + m.dy - height : p.y + m.dy;
      return { x0: left - GAP_PX, y0: top - GAP_PX, x1: left + width + GAP_PX, y1: top + height + GAP_PX };
    };
    const free = (b: Box) =>
      b.x0 >= 0 &&
      b.y0 >= 0 &&
      b.x1 <= plot.width &&
      b.y1 <= plot.height &&
      !pointBoxes.some((q, j) => j !== i && apart(i, j) && overlaps(b, q)) &&
      !placed.some((q) => overlaps(b, q));
    const side = LABEL_SIDES.find((s) => free(boxOf(s))) ?? null;
    if (side) placed.push(boxOf(side));
    sides[i] = side;
  }
  return sides;
}
