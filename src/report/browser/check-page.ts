import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CdpPipe, type CdpEvent } from './cdp-pipe.ts';
import { chromiumArgs } from './chromium.ts';
import { textCollisions, type ChartGeometry } from './text-overlap.ts';

/**
 * Opens the report page from disk (file://, as a reader would, offline) in headless Chromium and
 * checks that it loads, every chart figure holds a static SVG with drawn marks and, once its
 * script has run, an interactive vega-embed chart whose marks show a tooltip on hover; the
 * tables are there with projected headers marked † and a CSV download; nothing is fetched from
 * the network and nothing is logged as an error. At FIRST_SCREEN the findings and the first chart
 * are on the first screen, with the run's details folded away; no text of any chart (interactive
 * or static) overlaps another or lies on a bar. Optionally writes screenshots of the first screen
 * and of the whole page.
 */
export interface ChartStatus {
  id: string;
  /** The static SVG (the no-JavaScript fallback) and its drawn marks. */
  svg: boolean;
  marks: number;
  /** The interactive chart vega-embed drew, and its drawn marks. */
  live: boolean;
  liveMarks: number;
  /** Where the visible chart is, in page pixels (for checking a screenshot). */
  box: { x: number; y: number; width: number; height: number };
  width: number;
  height: number;
  /** Text of the tooltip shown when the pointer rests on the chart's first mark that has one ('' if none showed). */
  tooltip: string;
}

export interface PageCheck {
  ok: boolean;
  url: string;
  title: string;
  tables: number;
  projectedHeaders: number;
  csvLinks: number;
  /** How the page's script left the charts: live, failed, static (no vega bundle), none (no chart), or timeout. */
  chartsState: string;
  charts: ChartStatus[];
  skippedCharts: number;
  consoleErrors: string[];
  externalRequests: string[];
  /** The texts and bars measured in every chart, both drawings (what the overlap check judged). */
  geometry: ChartGeometry[];
  problems: string[];
  screenshot?: string;
  fullPageScreenshot?: string;
}

/** The first screen a reader sees: a common laptop browser window. */
export const FIRST_SCREEN = { width: 1400, height: 900 } as const;

export interface CheckOptions {
  chromium: string;
  /** A PNG of the first screen (FIRST_SCREEN, or `width` × FIRST_SCREEN.height). */
  screenshot?: string;
  /** A PNG of the whole page. */
  fullPageScreenshot?: string;
  width?: number;
  timeoutMs?: number;
}

/** Where the page's first parts are, scrolled to the top (viewport pixels). */
interface FirstScreen {
  findings: { top: number; bottom: number } | null;
  firstChart: { id: string; top: number; bottom: number } | null;
  /** The run's details, the legend, the contents: each must sit in a closed <details>. */
  unfolded: string[];
}

interface DomStats {
  title: string;
  tables: number;
  csvLinks: number;
  projectedHeaders: number;
  projectedHeadersMarked: number;
  legend: boolean;
  toc: boolean;
  /** src of every external script: the page may load only files beside it. */
  scriptFiles: string[];
  /** Chart figures that carry a spec for vega-embed: each must end up drawn live. */
  interactive: number;
  skipped: number;
  charts: Omit<ChartStatus, 'tooltip'>[];
}

const MARKS = 'g[class*="mark-"] > path, g[class*="mark-"] > line, g[class*="mark-"] > rect, g[class*="mark-"] > text';

/** Resolves when the page's chart script is done (html[data-charts] set), or 'none' / 'timeout'. */
const CHARTS_SETTLED = (ms: number) => `new Promise((resolve) => {
  if (!document.querySelector('figure.chart[data-spec]')) return resolve('none');
  const t0 = Date.now();
  const tick = () => {
    const state = document.documentElement.dataset.charts;
    if (state) resolve(state);
    else if (Date.now() - t0 > ${ms}) resolve('timeout');
    else setTimeout(tick, 50);
  };
  tick();
})`;

const DOM_STATS = `(() => {
  const marks = (s) => (s ? s.querySelectorAll('${MARKS}').length : 0);
  const charts = [...document.querySelectorAll('figure.chart')].map((f) => {
    const s = f.querySelector('.chart-static svg') || f.querySelector('svg');
    const live = f.querySelector('.chart-live svg');
    const shown = live && f.classList.contains('live') ? live : s;
    const r = shown ? shown.getBoundingClientRect() : { x: 0, y: 0, width: 0, height: 0 };
    return {
      id: f.id,
      svg: !!s,
      marks: marks(s),
      live: !!live && f.classList.contains('live'),
      liveMarks: marks(live),
      box: { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height },
      width: r.width,
      height: r.height,
    };
  });
  const th = [...document.querySelectorAll('th.k-projected')];
  return {
    title: document.title,
    tables: document.querySelectorAll('section.table table').length,
    csvLinks: document.querySelectorAll('section.table a.dl[href$=".csv"]').length,
    projectedHeaders: th.length,
    projectedHeadersMarked: th.filter((x) => x.textContent.includes('\\u2020')).length,
    legend: !!document.querySelector('section.legend'),
    toc: !!document.querySelector('nav.toc a[href^="#"]'),
    scriptFiles: [...document.scripts].filter((x) => x.src).map((x) => x.getAttribute('src')),
    interactive: document.querySelectorAll('figure.chart[data-spec]').length,
    skipped: document.querySelectorAll('.chart-skipped').length,
    charts,
  };
})()`;

/**
 * The centre, in viewport pixels, of the first mark of a live chart that carries a tooltip (a
 * point along a line's path) and that the pointer reaches there (another mark drawn over it
 * would take the hover), scrolled into view; the first such mark's centre when every one is
 * covered; null when the chart has none.
 */
const TOOLTIP_TARGET = (id: string) => `(() => {
  const svg = document.querySelector(${JSON.stringify(`#${id} .chart-live svg`)});
  if (!svg) return null;
  const withTooltip = (sel) => [...svg.querySelectorAll(sel)].filter((e) => e.__data__ && e.__data__.tooltip != null);
  const marks = [...withTooltip('g.mark-rect > path, g.mark-symbol > path'), ...withTooltip('g[class*="mark-"] > path')];
  const centre = (el) => {
    el.scrollIntoView({ block: 'center' });
    let p;
    if (el.closest('g.mark-line') && el.getTotalLength() > 0) p = el.getPointAtLength(el.getTotalLength() / 2);
    else { const b = el.getBBox(); p = { x: b.x + b.width / 2, y: b.y + b.height / 2 }; }
    const q = new DOMPoint(p.x, p.y).matrixTransform(el.getScreenCTM());
    return { x: q.x, y: q.y };
  };
  for (const el of marks.slice(0, 50)) {
    const q = centre(el);
    if (document.elementFromPoint(q.x, q.y) === el) return q;
  }
  return marks.length ? centre(marks[0]) : null;
})()`;

const FIRST_SCREEN_LAYOUT = `(() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return { top: r.top + scrollY, bottom: r.bottom + scrollY }; };
  const findings = document.querySelector('section.findings');
  const chart = document.querySelector('figure.chart');
  const folded = { 'run details (dl.facts)': 'dl.facts', 'legend (section.legend)': 'section.legend', 'contents (nav.toc)': 'nav.toc' };
  return {
    findings: findings ? box(findings) : null,
    firstChart: chart ? { id: chart.id, ...box(chart) } : null,
    unfolded: Object.entries(folded).filter(([, sel]) => { const el = document.querySelector(sel); return el && !el.closest('details:not([open])'); }).map(([name]) => name),
  };
})()`;

/**
 * Every chart's texts and bars as page-pixel quads, for both drawings: the interactive one and the
 * static SVG (shown for the measurement by lifting the figure's "live" class, then put back).
 */
const CHART_GEOMETRY = `(() => {
  const quad = (el) => {
    const b = el.getBBox();
    const m = el.getScreenCTM();
    if (!m || b.width === 0 || b.height === 0) return null;
    return [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]].map(([x, y]) => {
      const p = new DOMPoint(x, y).matrixTransform(m);
      return [p.x + scrollX, p.y + scrollY];
    });
  };
  const hidden = (el, svg) => {
    for (let e = el; e && e !== svg.parentNode; e = e.parentNode) {
      const s = getComputedStyle(e);
      if (s.display === 'none' || s.visibility === 'hidden' || Number(s.opacity) === 0) return true;
    }
    return Number(getComputedStyle(el).fillOpacity) === 0;
  };
  const measure = (id, view, svg) => ({
    id,
    view,
    texts: [...svg.querySelectorAll('text')]
      .filter((t) => t.textContent.trim() !== '' && !hidden(t, svg))
      .map((t) => ({ text: t.textContent.trim(), quad: quad(t) }))
      .filter((t) => t.quad),
    bars: [...svg.querySelectorAll('g.mark-rect.role-mark > path')].filter((b) => !hidden(b, svg)).map(quad).filter(Boolean),
    frame: (() => { const r = svg.getBoundingClientRect(); return { left: r.left + scrollX, top: r.top + scrollY, right: r.right + scrollX, bottom: r.bottom + scrollY }; })(),
  });
  const out = [];
  for (const f of document.querySelectorAll('figure.chart')) {
    const live = f.querySelector('.chart-live svg');
    if (live && f.classList.contains('live')) {
      out.push(measure(f.id, 'live', live));
      f.classList.remove('live');
    }
    const stat = f.querySelector('.chart-static svg') || (live ? null : f.querySelector('svg'));
    if (stat) out.push(measure(f.id, 'static', stat));
    if (live && !f.classList.contains('live') && out.some((g) => g.id === f.id && g.view === 'live')) f.classList.add('live');
  }
  return out;
})()`;

const TOOLTIP_TEXT = `(() => {
  const t = document.getElementById('vg-tooltip-element');
  return t && t.classList.contains('visible') ? t.innerText.replace(/\\s+/g, ' ').trim() : '';
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
      await send('Emulation.setDeviceMetricsOverride', {
        width: opts.width ?? FIRST_SCREEN.width,
        height: FIRST_SCREEN.height,
        deviceScaleFactor: 1,
        mobile: false,
      });
      const loaded = browser.waitFor(
        (e) => e.sessionId === sessionId && e.method === 'Page.loadEventFired',
        timeoutMs,
        `the load event of ${url}`,
      );
      const nav = (await send('Page.navigate', { url })) as { errorText?: string };
      if (nav.errorText) throw new Error(`navigation to ${url} failed: ${nav.errorText}`);
      await loaded;
      const evaluate = async <T>(expression: string): Promise<T> =>
        ((await send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true })) as { result: { value: T } }).result
          .value;
      const chartsState = await evaluate<string>(CHARTS_SETTLED(Math.max(1000, timeoutMs - 10_000)));
      await new Promise((r) => setTimeout(r, 300)); // late console messages
      const tooltips = new Map<string, string>();
      for (const id of (await evaluate<DomStats>(DOM_STATS)).charts.filter((c) => c.live).map((c) => c.id)) {
        const at = await evaluate<{ x: number; y: number } | null>(TOOLTIP_TARGET(id));
        if (!at) continue;
        await send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: at.x, y: at.y });
        await new Promise((r) => setTimeout(r, 150)); // vega-tooltip shows after the pointer event
        tooltips.set(id, await evaluate<string>(TOOLTIP_TEXT));
        await send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: 0, y: 0 });
      }
      await evaluate('window.scrollTo(0, 0)');
      const dom = await evaluate<DomStats>(DOM_STATS);
      const geometry = await evaluate<ChartGeometry[]>(CHART_GEOMETRY);
      const firstScreen = await evaluate<FirstScreen>(FIRST_SCREEN_LAYOUT);
      let screenshot: string | undefined;
      if (opts.screenshot) {
        const shot = (await send('Page.captureScreenshot', { format: 'png' })) as { data: string };
        writeFileSync(opts.screenshot, Buffer.from(shot.data, 'base64'));
        screenshot = opts.screenshot;
      }
      let fullPageScreenshot: string | undefined;
      if (opts.fullPageScreenshot) {
        const metrics = (await send('Page.getLayoutMetrics')) as { cssContentSize: { width: number; height: number } };
        const { width, height } = metrics.cssContentSize;
        const shot = (await send('Page.captureScreenshot', {
          format: 'png',
          captureBeyondViewport: true,
          clip: { x: 0, y: 0, width: Math.ceil(width), height: Math.ceil(height), scale: 1 },
        })) as { data: string };
        writeFileSync(opts.fullPageScreenshot, Buffer.from(shot.data, 'base64'));
        fullPageScreenshot = opts.fullPageScreenshot;
      }
      return {
        ...judge(url, { dom, chartsState, tooltips, consoleErrors, externalRequests, geometry, firstScreen }),
        screenshot,
        fullPageScreenshot,
      };
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

/** What the browser showed, for judging. */
interface Observed {
  dom: DomStats;
  chartsState: string;
  tooltips: ReadonlyMap<string, string>;
  consoleErrors: string[];
  externalRequests: string[];
  geometry: ChartGeometry[];
  firstScreen: FirstScreen;
}

function judge(url: string, seen: Observed): Omit<PageCheck, 'screenshot' | 'fullPageScreenshot'> {
  const { dom, chartsState, tooltips, consoleErrors, externalRequests, geometry, firstScreen } = seen;
  const problems: string[] = [];
  if (!dom.title) problems.push('the page has no title');
  if (!dom.legend) problems.push('the page has no legend of measured / projected / published');
  if (!dom.toc) problems.push('the page has no table of contents');
  if (dom.tables === 0) problems.push('the page shows no table');
  if (dom.csvLinks < dom.tables) problems.push(`${dom.tables - dom.csvLinks} table(s) have no CSV download link`);
  for (const src of dom.scriptFiles.filter((x) => !isBesideThePage(x)))
    problems.push(`the page loads a script from outside its folder: ${src}`);
  if (dom.projectedHeadersMarked < dom.projectedHeaders)
    problems.push(`${dom.projectedHeaders - dom.projectedHeadersMarked} projected column header(s) lack †`);
  const interactive = dom.interactive > 0;
  if (interactive && chartsState !== 'live') problems.push(`the interactive charts did not all draw (state: ${chartsState})`);
  const charts: ChartStatus[] = dom.charts.map((c) => ({ ...c, tooltip: tooltips.get(c.id) ?? '' }));
  for (const c of charts) {
    if (!c.svg) problems.push(`chart ${c.id} has no SVG`);
    else if (c.marks === 0) problems.push(`chart ${c.id} has an SVG with no drawn marks`);
    if (interactive && !c.live) problems.push(`chart ${c.id} was not drawn interactive by vega-embed`);
    else if (interactive && c.liveMarks === 0) problems.push(`chart ${c.id}: the interactive chart has no drawn marks`);
    else if (interactive && !c.tooltip) problems.push(`chart ${c.id}: no tooltip showed on hovering a mark`);
    if (c.svg && (c.width < 50 || c.height < 50)) problems.push(`chart ${c.id} renders at ${c.width}×${c.height} px`);
  }
  if (dom.charts.length === 0 && dom.skipped === 0) problems.push('the page shows no chart and no skipped-chart note');
  problems.push(...firstScreenProblems(firstScreen), ...geometry.flatMap((g) => textCollisions(g)));
  for (const e of consoleErrors) problems.push(`console error: ${e}`);
  for (const u of externalRequests) problems.push(`network request outside the page's folder: ${u}`);
  return {
    ok: problems.length === 0,
    url,
    title: dom.title,
    tables: dom.tables,
    projectedHeaders: dom.projectedHeaders,
    csvLinks: dom.csvLinks,
    chartsState,
    charts,
    skippedCharts: dom.skipped,
    consoleErrors,
    externalRequests,
    geometry,
    problems,
  };
}

/** The findings and the first chart whole on the first screen; the run's details folded away. */
function firstScreenProblems(f: FirstScreen): string[] {
  const screen = `the first screen (${FIRST_SCREEN.width}×${FIRST_SCREEN.height})`;
  const problems = f.unfolded.map((name) => `the ${name} is not folded away in a closed <details>`);
  if (f.findings && f.findings.bottom > FIRST_SCREEN.height)
    problems.push(`the findings end at y = ${Math.round(f.findings.bottom)} px, below ${screen}`);
  if (f.firstChart && f.firstChart.bottom > FIRST_SCREEN.height)
    problems.push(
      `the first chart (${f.firstChart.id}) spans y = ${Math.round(f.firstChart.top)}–${Math.round(f.firstChart.bottom)} px, not within ${screen}`,
    );
  return problems;
}

/** A relative path that stays in the page's folder (no scheme, no leading / or ..). */
function isBesideThePage(src: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(src) && !src.startsWith('/') && !src.split('/').includes('..');
}
