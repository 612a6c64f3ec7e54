import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
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

describe('scripts/check-html.ts in headless Chromium', () => {
  it.skipIf(!chromium)(
    `the report page loads offline, draws every chart as SVG, logs no error${skipNote}`,
    { timeout: 180_000 },
    async () => {
      const { reportsDir } = await renderFixture();
      const shot = join(reportsDir, 'index.png');
      const { code, out } = await checkHtml([join(reportsDir, 'index.html'), '--screenshot', shot]);
      expect(out).toContain('check-html: ok');
      expect(code).toBe(0);
      expect(out).toContain(`charts: ${CHARTS.length} drawn`);
      expect(out).toContain('console errors: none; network requests: none');
      expect(readFileSync(shot).subarray(1, 4).toString()).toBe('PNG');
      expect(statSync(shot).size).toBeGreaterThan(50_000);
    },
  );

  it.skipIf(!chromium)(
    `fails a page with a console error, a script and a request to the network${skipNote}`,
    { timeout: 180_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'tooltax-bad-page-'));
      const page = join(dir, 'index.html');
      writeFileSync(
        page,
        `<!doctype html><html><head><title>bad</title></head><body>
<section class="legend">legend</section>
<section class="table"><table><tr><th class="k-projected">success %</th></tr></table></section>
<figure class="chart" id="chart-empty"><svg width="200" height="100"></svg></figure>
<img src="http://127.0.0.1:9/missing.png">
<script>console.error('boom')</script>
</body></html>`,
      );
      const { code, out } = await checkHtml([page, '--no-screenshot']);
      expect(code).toBe(1);
      expect(out).toContain('check-html: FAILED');
      expect(out).toContain('PROBLEM console error: console.error: boom');
      expect(out).toContain('PROBLEM the page has 1 script element(s)');
      expect(out).toContain('PROBLEM 1 projected column header(s) lack †');
      expect(out).toContain('PROBLEM chart chart-empty has an SVG with no drawn marks');
      expect(out).toContain("PROBLEM network request outside the page's folder: http://127.0.0.1:9/missing.png");
    },
  );

  it('exits 3 with the reason when no Chromium can be found', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tooltax-no-chromium-'));
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
