/**
 * Renders the reports from the results folder alone, as `npm run report` does (phase 6), unless
 * the reports folder was drawn from these very results by this code (./drawn-from.ts):
 * a run whose results did not change keeps its reports. The renderers (vega, exceljs, resvg)
 * load only now, after the lanes are closed, so they do not raise the run's memory peak while
 * the lanes hold theirs.
 */
export async function renderRun(resultsDir: string, reportsDir: string, log: (line: string) => void): Promise<void> {
  // (`.then` with the names destructured: ts-unused-exports sees the use through a dynamic import.)
  const stamp = await import('./drawn-from.ts').then(({ drawnFromHash, drawnFrom, clearDrawnFrom, markDrawnFrom }) => ({
    drawnFromHash,
    drawnFrom,
    clearDrawnFrom,
    markDrawnFrom,
  }));
  const { drawnFrom, clearDrawnFrom, markDrawnFrom } = stamp;
  const hash = await stamp.drawnFromHash(resultsDir);
  if (drawnFrom(reportsDir, hash)) {
    log(`reports: ${reportsDir} was drawn from these same results by this same code, and is kept (\`npm run report\` draws it again)`);
    return;
  }
  const { renderReports } = await import('../report/render-reports.ts');
  clearDrawnFrom(reportsDir);
  const set = await renderReports(resultsDir, reportsDir, { log });
  markDrawnFrom(reportsDir, hash, set.files);
}
