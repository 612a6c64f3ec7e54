import { existsSync } from 'node:fs';
import { liveMcpBenchCatalogDir, liveMcpBenchTasksFile, realPrimaryDumps, realQueriesFile } from '../catalog/bundled.ts';
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

/** The LiveMCPBench development half: its 70 dumps (527 tools) and 47 requests; undefined when a file is missing. */
export function loadLiveMcpBenchSuite(root: string): { catalog: Catalog; tasks: Task[] } | undefined {
  const dir = liveMcpBenchCatalogDir(root);
  const tasks = liveMcpBenchTasksFile(root);
  if (!existsSync(dir) || !existsSync(tasks)) return undefined;
  // A folder of dumps: the loader reads each, in name order.
  const catalog = loadCatalog(dir);
  return { catalog, tasks: loadTasks(tasks, catalog) };
}
