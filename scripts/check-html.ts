// Checks the HTML report in headless Chromium (Debian's `chromium`): the page loads from disk,
// every chart is a static SVG with drawn marks and is redrawn interactive by vega-embed with a
// tooltip on hover, tables carry † on projected headers and a CSV download, no console errors,
// no network requests. Writes a full-page screenshot.
//
//   npx tsx scripts/check-html.ts [reports/index.html] [--screenshot <png>] [--no-screenshot]
//
// Exit codes: 0 ok; 1 the page failed a check; 2 usage or missing page; 3 no chromium found.
import { existsSync } from 'node:fs';
import { checkPage } from '../src/report/browser/check-page.ts';
import { CHROMIUM_MISSING, findChromium } from '../src/report/browser/chromium.ts';

const args = process.argv.slice(2);
let page = 'reports/index.html';
let screenshot: string | undefined;
let wantShot = true;
for (let i = 0; i < args.length; i++) {
  const a = args[i]!;
  if (a === '--screenshot') screenshot = args[++i];
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

const result = await checkPage(page, { chromium, screenshot: wantShot ? screenshot : undefined });
console.log(`check-html: ${result.url}`);
console.log(`  title: ${result.title}`);
console.log(`  tables: ${result.tables} (${result.projectedHeaders} projected column headers, ${result.csvLinks} CSV downloads)`);
console.log(
  `  charts: ${result.charts.length} drawn${result.charts.length ? ` (${result.charts.map((c) => `${c.id.replace(/^chart-/, '')}: ${c.marks} marks`).join(', ')})` : ''}; ${result.skippedCharts} skipped with a note`,
);
console.log(`  interactive charts: ${result.chartsState}; ${result.charts.filter((c) => c.live).length} drawn by vega-embed`);
for (const c of result.charts.filter((x) => x.tooltip)) console.log(`    tooltip ${c.id.replace(/^chart-/, '')}: ${c.tooltip}`);
console.log(`  console errors: ${result.consoleErrors.length || 'none'}; network requests: ${result.externalRequests.length || 'none'}`);
if (result.screenshot) console.log(`  screenshot: ${result.screenshot}`);
if (!result.ok) {
  for (const p of result.problems) console.log(`  PROBLEM ${p}`);
  console.log('check-html: FAILED');
  process.exit(1);
}
console.log('check-html: ok');
