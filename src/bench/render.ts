/**
 * Renders the reports from the results folder alone, as `npm run report` does (phase 6). The
 * renderers (vega, exceljs, resvg) load only now, after the lanes are closed, so they do not
 * raise the run's memory peak while the lanes hold theirs.
 */
export async function renderRun(resultsDir: string, reportsDir: string, log: (line: string) => void): Promise<void> {
  const { renderReports } = await import('../report/render-reports.ts');
  await renderReports(resultsDir, reportsDir, { log });
}
