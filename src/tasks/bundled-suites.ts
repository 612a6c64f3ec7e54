import { existsSync } from 'node:fs';
import { loadCatalog } from '../catalog/load.ts';
import type { Catalog } from '../catalog/types.ts';
import type { Suite } from '../table/suites.ts';
import { loadTasks } from './load.ts';
import type { Task } from './types.ts';

/** A fixed suite's catalog and tasks (src/table/suites.ts); undefined when a file is missing (an override folder without them) or the suite is the run's own. */
export function loadSuite(suite: Suite, root: string): { catalog: Catalog; tasks: Task[] } | undefined {
  if (!suite.data) return undefined;
  const catalogPath = suite.data.catalog(root);
  const tasksFile = suite.data.tasks(root);
  if (![catalogPath].flat().every((f) => existsSync(f)) || !existsSync(tasksFile)) return undefined;
  // A folder of dumps is read in name order.
  const catalog = loadCatalog(catalogPath);
  return { catalog, tasks: loadTasks(tasksFile, catalog) };
}
