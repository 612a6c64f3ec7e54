import { makeTempDir } from '../helpers/temp.ts';
import { renderReports, type ReportSet } from '../../src/report/render-reports.ts';
import { writeFixtureResults } from './fixture.ts';

export interface RenderedFixture {
  resultsDir: string;
  reportsDir: string;
  set: ReportSet;
  log: string[];
}

/** Renders the whole report set from the fixture results into a fresh directory. */
export async function renderFixture(omit: readonly string[] = []): Promise<RenderedFixture> {
  const resultsDir = writeFixtureResults(omit);
  const reportsDir = makeTempDir('tooltax-reports-');
  const log: string[] = [];
  const set = await renderReports(resultsDir, reportsDir, { log: (l) => log.push(l) });
  return { resultsDir, reportsDir, set, log };
}
