import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { pngAvailability, type PngAvailability } from '../../src/report/charts/png.ts';
import { writeCharts } from '../../src/report/charts/write-charts.ts';
import { FIXTURE_RUN_INFO, FIXTURE_TABLES } from './fixture.ts';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'tooltax-png-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Pixels darker than light grey: text and marks on the white background. */
async function darkPixels(png: Buffer | string): Promise<{ width: number; height: number; dark: number }> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  let dark = 0;
  for (const v of data) if (v < 160) dark++;
  return { width: info.width, height: info.height, dark };
}

function resvg() {
  const png = pngAvailability('resvg');
  if (!png.available) throw new Error(png.reason);
  return png.renderer;
}

describe('PNG charts from npm alone (@resvg/resvg-js)', () => {
  it('draws text with the shipped font, not the machine fonts', async () => {
    const dir = tmp();
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"><text x="4" y="28" font-family="DejaVu Sans, Helvetica, sans-serif" font-size="24">F1 vs θ †</text></svg>`;
    expect(resvg().convert(svg, '', join(dir, 'text.png'))).toBeUndefined();
    const { width, height, dark } = await darkPixels(join(dir, 'text.png'));
    expect([width, height]).toEqual([400, 80]); // drawn at 2×
    expect(dark).toBeGreaterThan(1000); // glyphs are there (without a font the image is blank)
  });

  it('writes the same bytes on every run', async () => {
    const a = tmp();
    const b = tmp();
    const first = await writeCharts(a, FIXTURE_TABLES, FIXTURE_RUN_INFO);
    await writeCharts(b, FIXTURE_TABLES, FIXTURE_RUN_INFO);
    for (const c of first.charts) {
      const png = readFileSync(join(a, c.files.png!));
      expect(png.equals(readFileSync(join(b, c.files.png!))), c.id).toBe(true);
      const svgWidth = Number(/width="(\d+)"/.exec(c.svg!)![1]);
      const { width, dark } = await darkPixels(png);
      expect(width).toBe(2 * svgWidth);
      expect(dark, `${c.id} has drawn text and marks`).toBeGreaterThan(5000);
    }
  });
});

describe('without any PNG renderer', () => {
  const saved = process.env.RSVG_CONVERT;
  afterEach(() => {
    if (saved === undefined) delete process.env.RSVG_CONVERT;
    else process.env.RSVG_CONVERT = saved;
  });

  it('rsvg-convert, the fallback, explains why it is missing', () => {
    process.env.RSVG_CONVERT = '/nonexistent/rsvg-convert';
    expect(pngAvailability('rsvg-convert')).toEqual({
      available: false,
      reason: "/nonexistent/rsvg-convert not found (Debian's librsvg2-bin)",
    });
  });

  it('keeps an existing (committed) PNG, says so, and still writes SVG and spec', async () => {
    const dir = tmp();
    mkdirSync(join(dir, 'charts'));
    const committed = Buffer.from('\x89PNG committed by an earlier run');
    writeFileSync(join(dir, 'charts', 'f1-vs-theta.png'), committed);
    const none: PngAvailability = { available: false, reason: 'no renderer (test stand-in)' };
    const { charts, notes } = await writeCharts(dir, FIXTURE_TABLES, FIXTURE_RUN_INFO, { png: none });
    expect(readFileSync(join(dir, 'charts', 'f1-vs-theta.png')).equals(committed)).toBe(true);
    expect(notes[0]).toBe('PNG charts not drawn: no renderer (test stand-in). SVG charts and the HTML page are complete.');
    expect(notes).toContain(
      'chart f1-vs-theta: PNG not updated (no renderer (test stand-in)); the earlier charts/f1-vs-theta.png is kept and may be stale',
    );
    const f1 = charts.find((c) => c.id === 'f1-vs-theta')!;
    expect([f1.png, f1.files.png]).toEqual(['kept', 'charts/f1-vs-theta.png']);
    const other = charts.find((c) => c.id === 'reduction-vs-b1')!;
    expect([other.png, other.files.png, other.files.svg]).toEqual(['absent', undefined, 'charts/reduction-vs-b1.svg']);
  });
});
