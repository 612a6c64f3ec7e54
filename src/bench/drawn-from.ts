import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JSONSchemaType } from 'ajv';
import { CHART_FONT_FILES, pngAvailability } from '../report/charts/png.ts';
import { readManifest } from '../results/read.ts';
import { writeFileAtomic } from '../util/files.ts';
import { readJsonFileIfValid, type JsonFileFormat } from '../util/json-file.ts';
import { ownSourceFile } from '../util/own-source.ts';
import { CodeGraph } from './plan/code-graph.ts';

/**
 * What a reports folder was drawn from, so that a run whose results did not change keeps it
 * instead of drawing every chart, PNG and workbook again (most of the cost of a run whose units
 * were all restored). The stamp is the hash of what the reports read (the tables, and the run's
 * manifest but for its clock: start, end, seconds) and of what draws them (the report modules,
 * the lockfile, the fonts, the PNG renderer), with the files drawn and their sizes. Kept reports
 * show the clock of the run that drew them; `npm run report` always draws.
 */
const STAMP_FILE = '.drawn-from.json';
const FORMAT = 'tooltax-reports/1';
const RENDERER = ownSourceFile(new URL('../report/render-reports.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Stamp {
  format: string;
  hash: string;
  files: { path: string; size: number }[];
}

const STAMP_JSON: JsonFileFormat<Stamp> = {
  what: "the reports folder's stamp (.drawn-from.json)",
  version: { field: 'format', value: FORMAT },
  schema: {
    type: 'object',
    properties: {
      format: { type: 'string' },
      hash: { type: 'string' },
      files: {
        type: 'array',
        items: {
          type: 'object',
          properties: { path: { type: 'string' }, size: { type: 'integer' } },
          required: ['path', 'size'],
          additionalProperties: false,
        },
      },
    },
    required: ['format', 'hash', 'files'],
    additionalProperties: false,
  } as JSONSchemaType<Stamp>,
};

/** The hash of the results' tables and manifest (its clock left out) and of the code, fonts and PNG renderer that draw them. */
export async function drawnFromHash(resultsDir: string): Promise<string> {
  const hash = createHash('sha256').update(`${FORMAT}\u0000`);
  const tablesDir = join(resultsDir, 'tables');
  const tables = existsSync(tablesDir) ? readdirSync(tablesDir).sort() : [];
  for (const name of tables)
    hash
      .update(`tables/${name}\u0000`)
      .update(readFileSync(join(tablesDir, name)))
      .update('\u0000');
  const manifest = readManifest(resultsDir);
  if (manifest) {
    const { startedAt: _s, finishedAt: _f, seconds: _x, ...rest } = manifest;
    hash.update(JSON.stringify(rest));
  }
  const graph = await CodeGraph.of(ROOT, [RENDERER.href]);
  hash.update(`\u0000${graph.hash(RENDERER.href)}`);
  for (const file of [join(ROOT, 'package-lock.json'), ...CHART_FONT_FILES])
    hash.update(`\u0000${existsSync(file) ? createHash('sha256').update(readFileSync(file)).digest('hex') : '(missing)'}`);
  const png = pngAvailability();
  hash.update(`\u0000${png.available ? png.renderer.version : `no PNG: ${png.reason}`}`);
  return hash.digest('hex');
}

/** Whether `reportsDir` was drawn from what `hash` stands for, and every file drawn is still there with its size. */
export function drawnFrom(reportsDir: string, hash: string): boolean {
  const stamp = readJsonFileIfValid(join(reportsDir, STAMP_FILE), STAMP_JSON);
  if (!stamp || stamp.hash !== hash || stamp.files.length === 0) return false;
  return stamp.files.every((f) => {
    const file = join(reportsDir, ...f.path.split('/'));
    return existsSync(file) && statSync(file).isFile() && statSync(file).size === f.size;
  });
}

/** Before drawing: the folder no longer claims to be drawn from anything (a drawing that fails half-way is not kept). */
export function clearDrawnFrom(reportsDir: string): void {
  rmSync(join(reportsDir, STAMP_FILE), { force: true });
}

/** After drawing `files` (relative to `reportsDir`) from what `hash` stands for. */
export function markDrawnFrom(reportsDir: string, hash: string, files: readonly string[]): void {
  const stamp: Stamp = {
    format: FORMAT,
    hash,
    files: files.map((path) => ({ path, size: statSync(join(reportsDir, ...path.split('/'))).size })),
  };
  writeFileAtomic(join(reportsDir, STAMP_FILE), `${JSON.stringify(stamp, null, 2)}\n`);
}
