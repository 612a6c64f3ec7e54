// Checks the HTML report in headless Chromium (Debian's `chromium`): the page loads from disk,
// every chart is a static SVG with drawn marks and is redrawn interactive by vega-embed with a
// tooltip on hover, tables carry † on projected headers and a CSV download, no console errors,
// no network requests; at 1400×900 the findings and the first chart are on the first screen with
// the run's details folded away; no text of any chart overlaps another text or a bar. Writes a
// screenshot of the first screen (default: index.png beside the page) and, on request, of the
// whole page.
//
//   npx tsx scripts/check-html.ts [reports/index.html] [--screenshot <png>] [--no-screenshot] [--full-page <png>]
//
// Exit codes: 0 ok; 1 the page failed a check; 2 usage or missing page; 3 no chromium found.
import { existsSync } from 'node:fs';
import { checkPage, FIRST_SCREEN } from '../src/report/browser/check-page.ts';
import { CHROMIUM_MISSING, findChromium } from '../src/report/browser/chromium.ts';

const args = process.argv.slice(2);
let page = 'reports/index.html';
let screenshot: string | undefined;
let wantShot = true;
let fullPage: string | undefined;
for (let i = 0; i < args.length; i++) {
  const a = args[i]!;
  if ((a === '--screenshot' || a === '--full-page') && !args[i + 1]) {
    console.error(`check-html: ${a} needs a file name`);
    process.exit(2);
  }
  if (a === '--screenshot') screenshot = args[++i];
  else if (a === '--full-page') fullPage = args[++i];
  else if (a === '--no-screenshot') wantShot = false;
  else if (a.startsWith('-')) {
    console.error(`check-html: unknown option ${a}`);
    process.exit(2);
  } else page = a;
}
if (!existsSync(page)) {
  console.error(`check-html: ${page} does not exist (run \`npm run report\` first)`);
  process.exit(2);
}
const chromium = findChromium();
if (!chromium) {
  console.error(`check-html: SKIPPED: ${CHROMIUM_MISSING}`);
  process.exit(3);
}
if (wantShot) screenshot ??= page.replace(/\.html?$/, '') + '.png';

const result = await checkPage(page, { chromium, screenshot: wantShot ? screenshot : undefined, fullPageScreenshot: fullPage });
console.log(`check-html: ${result.url}`);
console.log(`  title: ${result.title}`);
console.log(`  tables: ${result.tables} (${result.projectedHeaders} projected column headers, ${result.csvLinks} CSV downloads)`);
console.log(
  `  charts: ${result.charts.length} drawn${result.charts.length ? ` (${result.charts.map((c) => `${c.id.replace(/^chart-/, '')}: ${c.marks} marks`).join(', ')})` : ''}; ${result.skippedCharts} skipped with a note`,
);
console.log(`  interactive charts: ${result.chartsState}; ${result.charts.filter((c) => c.live).length} drawn by vega-embed`);
for (const c of result.charts.filter((x) => x.tooltip)) console.log(`    tooltip ${c.id.replace(/^chart-/, '')}: ${c.tooltip}`);
const measured = result.geometry.reduce((n, g) => n + g.texts.length, 0);
console.log(`  chart texts: ${measured} measured in ${result.geometry.length} drawings (interactive and static) for overlaps`);
console.log(`  console errors: ${result.consoleErrors.length || 'none'}; network requests: ${result.externalRequests.length || 'none'}`);
if (result.screenshot) console.log(`  screenshot of the first screen (${FIRST_SCREEN.width}×${FIRST_SCREEN.height}): ${result.screenshot}`);
if (result.fullPageScreenshot) console.log(`  screenshot of the whole page: ${result.fullPageScreenshot}`);
if (!result.ok) {
  for (const p of result.problems) console.log(`  PROBLEM ${p}`);
  console.log('check-html: FAILED');
  process.exit(1);
}
console.log('check-html: ok');
