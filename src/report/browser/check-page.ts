import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CdpPipe, type CdpEvent } from './cdp-pipe.ts';
import { chromiumArgs } from './chromium.ts';

/**
 * Opens the report page from disk (file://, as a reader would, offline) in headless Chromium and
 * checks that it loads, every chart figure holds an SVG with drawn marks, the tables are there
 * with projected headers marked †, nothing is fetched from the network and nothing is logged as
 * an error. Optionally writes a full-page screenshot.
 */
export interface ChartStatus {
  id: string;
  svg: boolean;
  marks: number;
  width: number;
  height: number;
}

export interface PageCheck {
  ok: boolean;
  url: string;
  title: string;
  tables: number;
  projectedHeaders: number;
  charts: ChartStatus[];
  skippedCharts: number;
  consoleErrors: string[];
  externalRequests: string[];
  problems: string[];
  screenshot?: string;
}

export interface CheckOptions {
  chromium: string;
  screenshot?: string;
  width?: number;
  timeoutMs?: number;
}

interface DomStats {
  title: string;
  tables: number;
  projectedHeaders: number;
  projectedHeadersMarked: number;
  legend: boolean;
  scripts: number;
  skipped: number;
  charts: ChartStatus[];
}

const DOM_STATS = `(() => {
  const charts = [...document.querySelectorAll('figure.chart')].map((f) => {
    const s = f.querySelector('svg');
    const r = s ? s.getBoundingClientRect() : { width: 0, height: 0 };
    const marks = s ? s.querySelectorAll('g[class*="mark-"] > path, g[class*="mark-"] > line, g[class*="mark-"] > rect, g[class*="mark-"] > text').length : 0;
    return { id: f.id, svg: !!s, marks, width: r.width, height: r.height };
  });
  const th = [...document.querySelectorAll('th.k-projected')];
  return {
    title: document.title,
    tables: document.querySelectorAll('section.table table').length,
    projectedHeaders: th.length,
    projectedHeadersMarked: th.filter((x) => x.textContent.includes('\\u2020')).length,
    legend: !!document.querySelector('section.legend'),
    scripts: document.scripts.length,
    skipped: document.querySelectorAll('.chart-skipped').length,
    charts,
  };
})()`;

export async function checkPage(htmlPath: string, opts: CheckOptions): Promise<PageCheck> {
  const url = pathToFileURL(resolve(htmlPath)).href;
  const userDataDir = mkdtempSync(join(tmpdir(), 'tooltax-chromium-'));
  const browser = CdpPipe.launch(opts.chromium, chromiumArgs(userDataDir));
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const consoleErrors: string[] = [];
  const externalRequests: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  try {
    const run = async (): Promise<PageCheck> => {
      const { targetId } = (await browser.send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
      const { sessionId } = (await browser.send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
      const send = (method: string, params: Record<string, unknown> = {}) => browser.send(method, params, sessionId);
      browser.on((e) => {
        if (e.sessionId === sessionId) collect(e, consoleErrors, externalRequests);
      });
      await Promise.all(['Runtime.enable', 'Log.enable', 'Page.enable', 'Network.enable'].map((m) => send(m)));
      await send('Emulation.setDeviceMetricsOverride', { width: opts.width ?? 1280, height: 900, deviceScaleFactor: 1, mobile: false });
      const loaded = browser.waitFor(
        (e) => e.sessionId === sessionId && e.method === 'Page.loadEventFired',
        timeoutMs,
        `the load event of ${url}`,
      );
      const nav = (await send('Page.navigate', { url })) as { errorText?: string };
      if (nav.errorText) throw new Error(`navigation to ${url} failed: ${nav.errorText}`);
      await loaded;
      await new Promise((r) => setTimeout(r, 300)); // late console messages
      const evaluated = (await send('Runtime.evaluate', { expression: DOM_STATS, returnByValue: true })) as { result: { value: DomStats } };
      const dom = evaluated.result.value;
      let screenshot: string | undefined;
      if (opts.screenshot) {
        const metrics = (await send('Page.getLayoutMetrics')) as { cssContentSize: { width: number; height: number } };
        const { width, height } = metrics.cssContentSize;
        const shot = (await send('Page.captureScreenshot', {
          format: 'png',
          captureBeyondViewport: true,
          clip: { x: 0, y: 0, width: Math.ceil(width), height: Math.ceil(height), scale: 1 },
        })) as { data: string };
        writeFileSync(opts.screenshot, Buffer.from(shot.data, 'base64'));
        screenshot = opts.screenshot;
      }
      return judge(url, dom, consoleErrors, externalRequests, screenshot);
    };
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`page check timed out after ${timeoutMs} ms\n${browser.stderr}`)), timeoutMs + 5000);
    });
    return await Promise.race([run(), timeout]);
  } finally {
    clearTimeout(timer);
    await browser.close();
    rmSync(userDataDir, { recursive: true, force: true });
  }
}

function collect(e: CdpEvent, errors: string[], external: string[]): void {
  const p = e.params as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  if (e.method === 'Runtime.consoleAPICalled' && (p.type === 'error' || p.type === 'assert')) {
    errors.push(
      `console.${p.type}: ${(p.args as { value?: unknown; description?: string }[]).map((a) => a.description ?? String(a.value)).join(' ')}`,
    );
  } else if (e.method === 'Runtime.exceptionThrown') {
    errors.push(`uncaught: ${p.exceptionDetails?.exception?.description ?? p.exceptionDetails?.text}`);
  } else if (e.method === 'Log.entryAdded' && p.entry?.level === 'error') {
    errors.push(`${p.entry.source}: ${p.entry.text}${p.entry.url ? ` (${p.entry.url})` : ''}`);
  } else if (e.method === 'Network.requestWillBeSent') {
    const u = String(p.request?.url ?? '');
    if (!/^(file|data|about|blob):/.test(u)) external.push(u);
  }
}

function judge(url: string, dom: DomStats, consoleErrors: string[], externalRequests: string[], screenshot?: string): PageCheck {
  const problems: string[] = [];
  if (!dom.title) problems.push('the page has no title');
  if (!dom.legend) problems.push('the page has no legend of measured / projected / published');
  if (dom.tables === 0) problems.push('the page shows no table');
  if (dom.scripts > 0) problems.push(`the page has ${dom.scripts} script element(s); the report is meant to need none`);
  if (dom.projectedHeadersMarked < dom.projectedHeaders)
    problems.push(`${dom.projectedHeaders - dom.projectedHeadersMarked} projected column header(s) lack †`);
  for (const c of dom.charts) {
    if (!c.svg) problems.push(`chart ${c.id} has no SVG`);
    else if (c.marks === 0) problems.push(`chart ${c.id} has an SVG with no drawn marks`);
    else if (c.width < 50 || c.height < 50) problems.push(`chart ${c.id} renders at ${c.width}×${c.height} px`);
  }
  if (dom.charts.length === 0 && dom.skipped === 0) problems.push('the page shows no chart and no skipped-chart note');
  for (const e of consoleErrors) problems.push(`console error: ${e}`);
  for (const u of externalRequests) problems.push(`network request outside the page's folder: ${u}`);
  return {
    ok: problems.length === 0,
    url,
    title: dom.title,
    tables: dom.tables,
    projectedHeaders: dom.projectedHeaders,
    charts: dom.charts,
    skippedCharts: dom.skipped,
    consoleErrors,
    externalRequests,
    problems,
    screenshot,
  };
}
