import { makeTempDir } from '../helpers/temp.ts';
import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkPage, FIRST_SCREEN } from '../../src/report/browser/check-page.ts';
import { CHROMIUM_MISSING, findChromium } from '../../src/report/browser/chromium.ts';
import { CHARTS } from '../../src/report/charts/registry.ts';
import { renderFixture } from './render-fixture.ts';

const run = promisify(execFile);
const chromium = findChromium();
const skipNote = chromium ? '' : ` [SKIPPED: ${CHROMIUM_MISSING}]`;
if (!chromium) console.warn(`test/report/browser.test.ts: SKIPPED: ${CHROMIUM_MISSING}`);

/** Runs scripts/check-html.ts as CI does; resolves with its exit code and output. */
async function checkHtml(args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/check-html.ts', ...args], {
      cwd: process.cwd(),
      timeout: 150_000,
    });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

/** Share of dark pixels (drawn, not background) in a box of a greyscale screenshot. */
function inkShare(grey: Buffer, width: number, box: { x: number; y: number; width: number; height: number }): number {
  let ink = 0;
  let all = 0;
  for (let y = Math.round(box.y); y < Math.round(box.y + box.height); y++)
    for (let x = Math.round(box.x); x < Math.round(box.x + box.width); x++, all++) if (grey[y * width + x]! < 200) ink++;
  return ink / all;
}

describe('scripts/check-html.ts in headless Chromium', () => {
  it.skipIf(!chromium)(
    `the report page loads offline, draws every chart interactive with tooltips, and the screenshot shows them${skipNote}`,
    { timeout: 180_000 },
    async () => {
      const { reportsDir } = await renderFixture();
      const screenshot = join(reportsDir, 'index.png');
      const fullPage = join(reportsDir, 'index-full.png');
      const result = await checkPage(join(reportsDir, 'index.html'), { chromium: chromium!, screenshot, fullPageScreenshot: fullPage });
      expect(result.problems).toEqual([]);
      // Every chart's texts were measured, in both drawings, and none collided (no problem above).
      expect(result.geometry.map((g) => `${g.id} ${g.view}`)).toEqual(
        CHARTS.flatMap((c) => [`chart-${c.id} live`, `chart-${c.id} static`]),
      );
      for (const g of result.geometry) expect(g.texts.length, `${g.id} ${g.view}`).toBeGreaterThan(5);
      expect(result.chartsState).toBe('live');
      expect(result.charts.map((c) => c.id)).toEqual(CHARTS.map((c) => `chart-${c.id}`));
      expect(result.consoleErrors).toEqual([]);
      expect(result.externalRequests).toEqual([]);
      expect(result.csvLinks).toBe(result.tables);
      // Tooltips carry the table's figures as printed (fixture: B1 measured 47,712; AACP hop 48 tokens).
      const tooltip = (id: string) => result.charts.find((c) => c.id === `chart-${id}`)!.tooltip;
      expect(tooltip('tool-tokens-per-turn')).toBe(
        'method B1 Full-Schema source synthetic-120 (measured) tool tokens/turn 47,712 table table3-measured',
      );
      expect(tooltip('aacp-tokens-per-hop')).toContain('payroll · fetch-employees language English tokens (measured, table aacp-hops) 48');
      expect(tooltip('f1-vs-theta')).toMatch(/^encoder \S+ θ \d\.\d\d F1 \d\.\d{3} precision \d\.\d{3} recall \d\.\d{3}$/);
      // The first screen, decoded: FIRST_SCREEN in size, and the first chart on it, drawn.
      const first = await sharp(screenshot).greyscale().raw().toBuffer({ resolveWithObject: true });
      expect([first.info.width, first.info.height]).toEqual([FIRST_SCREEN.width, FIRST_SCREEN.height]);
      const firstChart = result.charts[0]!;
      expect(firstChart.box.y + firstChart.box.height).toBeLessThanOrEqual(FIRST_SCREEN.height);
      expect(inkShare(first.data, first.info.width, firstChart.box), 'first chart on the first screen').toBeGreaterThan(0.02);
      // The whole page, decoded: every chart's box holds drawn pixels, not a blank area.
      const { data, info } = await sharp(fullPage).greyscale().raw().toBuffer({ resolveWithObject: true });
      for (const c of result.charts) {
        expect(c.box.width, c.id).toBeGreaterThan(400);
        expect(c.box.y + c.box.height, c.id).toBeLessThanOrEqual(info.height);
        expect(inkShare(data, info.width, c.box), `${c.id}: share of drawn pixels in its box`).toBeGreaterThan(0.02);
      }
    },
  );

  it.skipIf(!chromium)(
    `without the vega bundle the static SVG charts stay, and the check says the interactive charts did not draw${skipNote}`,
    { timeout: 180_000 },
    async () => {
      const { reportsDir } = await renderFixture();
      rmSync(join(reportsDir, 'vendor'), { recursive: true });
      const result = await checkPage(join(reportsDir, 'index.html'), { chromium: chromium! });
      expect(result.chartsState).toBe('static');
      expect(result.problems).toContain('the interactive charts did not all draw (state: static)');
      for (const c of result.charts) expect([c.live, c.marks > 0, c.box.width > 400]).toEqual([false, true, true]);
    },
  );

  it.skipIf(!chromium)(
    `fails a page with a console error, a script and a request to the network${skipNote}`,
    { timeout: 180_000 },
    async () => {
      const dir = makeTempDir('tooltax-bad-page-');
      const page = join(dir, 'index.html');
      writeFileSync(
        page,
        `<!doctype html><html><head><title>bad</title></head><body>
<section class="legend">legend</section>
<section class="table"><table><tr><th class="k-projected">success %</th></tr></table></section>
<figure class="chart" id="chart-empty"><svg width="200" height="100"></svg></figure>
<figure class="chart" id="chart-crowded"><svg width="300" height="100" style="font: 11px sans-serif">
<g class="mark-rect role-mark"><path d="M10,60h200v10h-200Z"></path></g>
<text x="10" y="20">Full-Schema</text><text x="60" y="20">Static Pruning</text>
<text x="20" y="50" transform="rotate(-45 20 50)">6,000</text><text x="44" y="50" transform="rotate(-45 44 50)">7,000</text>
<text x="100" y="68">47,712</text><text x="250" y="20">cut off at the edge</text>
<text x="10" y="95" fill-opacity="0">hidden, not judged</text><text x="12" y="95">seen</text>
</svg></figure>
<img src="http://127.0.0.1:9/missing.png">
<script>console.error('boom')</script>
<script src="https://cdn.example.org/vega-embed.js"></script>
</body></html>`,
      );
      const { code, out } = await checkHtml([page, '--no-screenshot']);
      expect(code).toBe(1);
      expect(out).toContain('check-html: FAILED');
      expect(out).toContain('PROBLEM console error: console.error: boom');
      expect(out).toContain('PROBLEM the page loads a script from outside its folder: https://cdn.example.org/vega-embed.js');
      expect(out).toContain('PROBLEM the page has no table of contents');
      expect(out).toContain('PROBLEM 1 table(s) have no CSV download link');
      expect(out).toContain('PROBLEM 1 projected column header(s) lack †');
      expect(out).toContain('PROBLEM chart chart-empty has an SVG with no drawn marks');
      expect(out).toContain("PROBLEM network request outside the page's folder: http://127.0.0.1:9/missing.png");
      expect(out).toContain('PROBLEM the legend (section.legend) is not folded away in a closed <details>');
      // Texts measured in the browser: overlapping, on a bar, cut off; angled labels apart are fine, hidden text is not judged.
      const overlaps = out.split('\n').filter((l) => l.includes('PROBLEM chart chart-crowded'));
      expect(overlaps).toEqual([
        '  PROBLEM chart chart-crowded (static SVG): text "Full-Schema" overlaps text "Static Pruning"',
        '  PROBLEM chart chart-crowded (static SVG): text "47,712" lies on a bar',
        '  PROBLEM chart chart-crowded (static SVG): text "cut off at the edge" is cut off at the edge of the chart',
      ]);
    },
  );

  it('exits 3 with the reason when no Chromium can be found', async () => {
    const dir = makeTempDir('tooltax-no-chromium-');
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>x</title>');
    const prev = process.env.CHROMIUM;
    process.env.CHROMIUM = '/nonexistent/chromium';
    try {
      const { code, out } = await checkHtml([join(dir, 'index.html')]);
      expect(code).toBe(3);
      expect(out).toContain(`check-html: SKIPPED: ${CHROMIUM_MISSING}`);
    } finally {
      if (prev === undefined) delete process.env.CHROMIUM;
      else process.env.CHROMIUM = prev;
    }
  });
});
