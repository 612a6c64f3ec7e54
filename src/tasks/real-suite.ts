import { existsSync } from 'node:fs';
import { realPrimaryDumps, realQueriesFile } from '../catalog/bundled.ts';
import { loadCatalog } from '../catalog/load.ts';
import type { Catalog } from '../catalog/types.ts';
import { loadTasks } from './load.ts';
import type { Task } from './types.ts';

/** The real suite: the six primary dumps (267 tools) and the real query set; undefined when a file is missing (an override folder without them). */
export function loadRealSuite(root: string): { catalog: Catalog; tasks: Task[] } | undefined {
  const dumps = realPrimaryDumps(root);
  const queries = realQueriesFile(root);
  if (!dumps.every((f) => existsSync(f)) || !existsSync(queries)) return undefined;
  const catalog = loadCatalog(dumps);
  return { catalog, tasks: loadTasks(queries, catalog) };
}
