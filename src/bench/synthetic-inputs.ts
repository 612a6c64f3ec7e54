import { join } from 'node:path';
import { generateCatalog, SYNTHETIC_CATALOG_NAME, type GeneratedCatalog } from '../catalog/generate.ts';
import { loadCatalog } from '../catalog/load.ts';
import { SERVER_SPECS } from '../catalog/servers/index.ts';
import type { Catalog } from '../catalog/types.ts';
import { TaskGenerator } from '../tasks/generate.ts';
import { loadTasks, tasksToJsonl } from '../tasks/load.ts';
import type { Task } from '../tasks/types.ts';
import { writeFileAtomic } from '../util/files.ts';
import { DEFAULT_SEED } from '../util/rng.ts';

/** Seed 42 writes the committed files; other seeds write beside them, never over them. */
function syntheticCatalogDir(root: string, seed: number): string {
  return join(root, 'catalogs', seed === DEFAULT_SEED ? SYNTHETIC_CATALOG_NAME : `${SYNTHETIC_CATALOG_NAME}-seed${seed}`);
}

function syntheticTasksDir(root: string, seed: number): string {
  return seed === DEFAULT_SEED ? join(root, 'tasks') : join(root, 'tasks', `seed${seed}`);
}

/** Regenerates the synthetic catalog files (calibrated with cl100k_base, as published) and reads them back. */
export function writeSyntheticCatalog(root: string, seed: number): { catalog: Catalog; generated: GeneratedCatalog; dir: string } {
  const generated = generateCatalog(SERVER_SPECS, seed);
  const dir = syntheticCatalogDir(root, seed);
  for (const [file, content] of generated.files) writeFileAtomic(join(dir, file), content);
  // Read back through the public loader, so the bench sees exactly what a user would.
  const catalog = loadCatalog(dir);
  catalog.name = SYNTHETIC_CATALOG_NAME;
  return { catalog, generated, dir };
}

export const TASKS_FILE = 'tasks.jsonl';
export const CALIBRATION_FILE = 'calibration.jsonl';

/** Regenerates the evaluated and the held-out calibration task files and reads them back. */
export function writeSyntheticTasks(root: string, seed: number, catalog: Catalog): { tasks: Task[]; calibration: Task[]; dir: string } {
  const generator = new TaskGenerator(SERVER_SPECS);
  const tasks = generator.generate(seed);
  const calibration = generator.generateCalibration(seed, tasks);
  const dir = syntheticTasksDir(root, seed);
  writeFileAtomic(join(dir, TASKS_FILE), tasksToJsonl(tasks));
  writeFileAtomic(join(dir, CALIBRATION_FILE), tasksToJsonl(calibration));
  return { tasks: loadTasks(join(dir, TASKS_FILE), catalog), calibration: loadTasks(join(dir, CALIBRATION_FILE), catalog), dir };
}

/** Task sets for further seeds, generated in memory on the same catalog. */
export function tasksForSeed(seed: number): Task[] {
  return new TaskGenerator(SERVER_SPECS).generate(seed);
}

/** Past usage for curators (B2 Static Pruning): an independent stream, never evaluated. */
export function historySample(seed: number): Task[] {
  return new TaskGenerator(SERVER_SPECS).generate(seed, 'history');
}
