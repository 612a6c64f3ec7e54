import { describe, expect, it } from 'vitest';
import { overlapDepth, textCollisions, type ChartGeometry, type Quad } from '../../src/report/browser/text-overlap.ts';

const box = (x: number, y: number, w: number, h: number): Quad => [
  [x, y],
  [x + w, y],
  [x + w, y + h],
  [x, y + h],
];
/** A w × h box turned by `deg` degrees about its bottom-left corner (an angled axis label). */
const turned = (x: number, y: number, w: number, h: number, deg: number): Quad => {
  const a = (deg * Math.PI) / 180;
  return box(0, -h, w, h).map(([px, py]) => [x + px * Math.cos(a) - py * Math.sin(a), y + px * Math.sin(a) + py * Math.cos(a)]);
};

describe('overlapDepth (separating axes)', () => {
  it('is the overlap of two boxes, and ≤ 0 when they are apart or only touch', () => {
    expect(overlapDepth(box(0, 0, 50, 12), box(40, 2, 50, 12))).toBeCloseTo(10);
    expect(overlapDepth(box(0, 0, 50, 12), box(50, 0, 50, 12))).toBeLessThanOrEqual(0);
    expect(overlapDepth(box(0, 0, 50, 12), box(0, 30, 50, 12))).toBeLessThan(0);
  });

  it('keeps angled labels apart whose upright bounding boxes overlap', () => {
    const a = turned(20, 50, 40, 12, -45);
    const b = turned(44, 50, 40, 12, -45);
    const bounds = (q: Quad) => {
      const xs = q.map((p) => p[0]);
      const ys = q.map((p) => p[1]);
      return box(Math.min(...xs), Math.min(...ys), Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
    };
    expect(overlapDepth(bounds(a), bounds(b))).toBeGreaterThan(10);
    expect(overlapDepth(a, b)).toBeLessThanOrEqual(0);
    // Closer than the text is tall, they do collide.
    expect(overlapDepth(a, turned(30, 50, 40, 12, -45))).toBeGreaterThan(1);
  });
});

describe('textCollisions', () => {
  const chart = (texts: [string, Quad][], bars: Quad[] = []): ChartGeometry => ({
    id: 'chart-x',
    view: 'live',
    texts: texts.map(([text, quad]) => ({ text, quad })),
    bars,
    frame: { left: 0, top: 0, right: 300, bottom: 100 },
  });

  it('names each colliding pair, each text on a bar and each text cut off at the edge', () => {
    const problems = textCollisions(
      chart(
        [
          ['47,712', box(100, 10, 30, 12)],
          ['47,312', box(100, 20, 30, 12)],
          ['fine', box(150, 40, 30, 12)],
          ['long legend entry', box(280, 80, 90, 12)],
        ],
        [box(0, 40, 160, 10)],
      ),
    );
    expect(problems).toEqual([
      'chart chart-x (interactive): text "47,712" overlaps text "47,312"',
      'chart chart-x (interactive): text "fine" lies on a bar',
      'chart chart-x (interactive): text "long legend entry" is cut off at the edge of the chart',
    ]);
  });

  it('lets neighbours touch within the tolerance (anti-aliased edges)', () => {
    expect(
      textCollisions(
        chart([
          ['a', box(0, 0, 30, 12)],
          ['b', box(0, 11.2, 30, 12)],
        ]),
      ),
    ).toEqual([]);
  });
});
