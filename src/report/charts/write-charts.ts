import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import { writeFileAtomic } from '../../util/files.ts';
import type { RunManifest } from '../../results/manifest.ts';
import type { Table } from '../../table/table.ts';
import { ChartSkip, describeSource, matchSource, type ChartDef } from './chart.ts';
import { pngAvailability, type PngAvailability } from './png.ts';
import { CHARTS } from './registry.ts';
import { renderSvg } from './render-svg.ts';

export interface ChartResult {
  id: string;
  title: string;
  /** Ids of the tables the chart was (or would have been) built from. */
  tables: string[];
  status: 'rendered' | 'skipped';
  /** Why the chart was skipped. */
  reason?: string;
  spec?: TopLevelSpec;
  svg?: string;
  /** Paths relative to the reports directory. */
  files: { spec?: string; svg?: string; png?: string };
  /**
   * written: this run drew the PNG; kept: no renderer worked, so the PNG already there (from an
   * earlier run, maybe committed) was left alone and may be stale; absent: no PNG.
   */
  png: 'written' | 'kept' | 'absent';
  warnings: string[];
}

export interface ChartsOutcome {
  charts: ChartResult[];
  png: PngAvailability;
  /** Lines for the console and the page: skipped charts, skipped PNGs, renderer warnings. */
  notes: string[];
}

const CHARTS_DIR = 'charts';

export interface WriteChartsOptions {
  defs?: readonly ChartDef[];
  /** The PNG renderer to use; default the first that works (see png.ts). Tests pass an unavailable one. */
  png?: PngAvailability;
}

/**
 * Writes charts/<id>.vl.json, .svg and .png for every chart whose tables are present. A PNG that
 * cannot be drawn is never deleted: an earlier (possibly committed) file stays, named in the notes.
 */
export async function writeCharts(
  reportsDir: string,
  tables: readonly Table[],
  info: RunManifest | undefined,
  opts: WriteChartsOptions = {},
): Promise<ChartsOutcome> {
  const png = opts.png ?? pngAvailability();
  const charts: ChartResult[] = [];
  const notes: string[] = [];
  for (const def of opts.defs ?? CHARTS) {
    const result = await buildChart(def, tables, info);
    const base = join(reportsDir, CHARTS_DIR, def.id);
    if (result.status === 'skipped') {
      // The run did not produce the chart's table: its old files would show data of another run.
      for (const ext of ['.vl.json', '.svg', '.png']) rmSync(base + ext, { force: true });
      notes.push(`chart ${def.id} skipped: ${result.reason}`);
    } else {
      writeFileAtomic(`${base}.vl.json`, `${JSON.stringify(result.spec, null, 2)}\n`);
      writeFileAtomic(`${base}.svg`, result.svg!);
      result.files = { spec: `${CHARTS_DIR}/${def.id}.vl.json`, svg: `${CHARTS_DIR}/${def.id}.svg` };
      const error = png.available ? png.renderer.convert(result.svg!, `${base}.svg`, `${base}.png`) : png.reason;
      if (!error) result.png = 'written';
      else if (existsSync(`${base}.png`)) {
        result.png = 'kept';
        notes.push(`chart ${def.id}: PNG not updated (${error}); the earlier ${CHARTS_DIR}/${def.id}.png is kept and may be stale`);
      } else if (png.available) notes.push(`chart ${def.id}: PNG not written: ${error}`);
      if (result.png !== 'absent') result.files.png = `${CHARTS_DIR}/${def.id}.png`;
      for (const w of result.warnings) notes.push(`chart ${def.id}: renderer warning: ${w}`);
    }
    charts.push(result);
  }
  if (!png.available && charts.some((c) => c.status === 'rendered'))
    notes.unshift(`PNG charts not drawn: ${png.reason}. SVG charts and the HTML page are complete.`);
  return { charts, png, notes };
}

/** Builds one chart from the tables; a missing table or column gives a skipped result with the reason. */
export async function buildChart(def: ChartDef, tables: readonly Table[], info: RunManifest | undefined): Promise<ChartResult> {
  const matched = def.sources.map((s) => matchSource(s, tables));
  const result: ChartResult = {
    id: def.id,
    title: def.title,
    tables: matched.flat().map((t) => t.id),
    status: 'skipped',
    files: {},
    png: 'absent',
    warnings: [],
  };
  const absent = def.sources.filter((_, i) => matched[i]!.length === 0);
  if (absent.length) {
    result.tables = def.sources;
    result.reason = `${absent.map(describeSource).join(' and ')} in the results (this run did not produce it)`;
    return result;
  }
  try {
    result.spec = def.build(matched, info);
  } catch (err) {
    if (!(err instanceof ChartSkip)) throw err;
    result.reason = err.message;
    return result;
  }
  const { svg, warnings } = await renderSvg(result.spec);
  return { ...result, status: 'rendered', svg, warnings };
}
