import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import { writeFileAtomic } from '../../util/files.ts';
import type { RunManifest } from '../../results/manifest.ts';
import type { Table } from '../../table/table.ts';
import { ChartSkip, describeSource, matchSource, type ChartDef } from './chart.ts';
import { pngAvailability, svgToPng, type PngAvailability } from './png.ts';
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
  warnings: string[];
}

export interface ChartsOutcome {
  charts: ChartResult[];
  png: PngAvailability;
  /** Lines for the console and the page: skipped charts, skipped PNGs, renderer warnings. */
  notes: string[];
}

const CHARTS_DIR = 'charts';

/** Writes charts/<id>.vl.json, .svg and .png for every chart whose tables are present. */
export async function writeCharts(
  reportsDir: string,
  tables: readonly Table[],
  info: RunManifest | undefined,
  defs: readonly ChartDef[] = CHARTS,
): Promise<ChartsOutcome> {
  const png = pngAvailability();
  const charts: ChartResult[] = [];
  const notes: string[] = [];
  for (const def of defs) {
    const result = await buildChart(def, tables, info);
    const base = join(reportsDir, CHARTS_DIR, def.id);
    if (result.status === 'skipped') {
      for (const ext of ['.vl.json', '.svg', '.png']) rmSync(base + ext, { force: true });
      notes.push(`chart ${def.id} skipped: ${result.reason}`);
    } else {
      writeFileAtomic(`${base}.vl.json`, `${JSON.stringify(result.spec, null, 2)}\n`);
      writeFileAtomic(`${base}.svg`, result.svg!);
      result.files = { spec: `${CHARTS_DIR}/${def.id}.vl.json`, svg: `${CHARTS_DIR}/${def.id}.svg` };
      if (png.available) {
        const error = svgToPng(`${base}.svg`, `${base}.png`);
        if (error) notes.push(`chart ${def.id}: PNG not written: ${error}`);
        else result.files.png = `${CHARTS_DIR}/${def.id}.png`;
      } else {
        rmSync(`${base}.png`, { force: true });
      }
      for (const w of result.warnings) notes.push(`chart ${def.id}: renderer warning: ${w}`);
    }
    charts.push(result);
  }
  if (!png.available && charts.some((c) => c.status === 'rendered'))
    notes.unshift(`PNG charts skipped: ${png.reason}. SVG charts and the HTML page are complete.`);
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
