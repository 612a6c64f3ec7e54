import { join } from 'node:path';

/**
 * The real data that ships with the repository (each folder carries its provenance and
 * licences): the real `tools/list` dumps, the six primary ones that the real query set is
 * written against, and the LiveMCPBench development half. One home for their paths, so no
 * module guesses where they are.
 */

/** Overrides the folder of real dumps (for a user's own copy); the bundled folder otherwise. */
export const REAL_CATALOGS_ENV = 'TOOLTAX_REAL_CATALOGS';

/** The six primary real servers of the real query set (tasks/real/README.md), by dump file stem. */
const REAL_PRIMARY_SERVERS = ['github', 'filesystem', 'supabase', 'slack', 'firecrawl', 'jira'] as const;

/** Where the real dumps are: $TOOLTAX_REAL_CATALOGS, else `catalogs/real` in the repository. */
export function realCatalogDir(root: string): string {
  return process.env[REAL_CATALOGS_ENV] || join(root, 'catalogs', 'real');
}

/** The six primary dumps' paths, in the query set's order. */
export function realPrimaryDumps(root: string): string[] {
  return REAL_PRIMARY_SERVERS.map((s) => join(realCatalogDir(root), `${s}.json`));
}

/** The hand-written real query set over the six primary dumps. */
export function realQueriesFile(root: string): string {
  return join(root, 'tasks', 'real', 'queries.jsonl');
}

/** LiveMCPBench's 70 dumps (Apache-2.0, catalogs/livemcpbench/README.md). */
export function liveMcpBenchCatalogDir(root: string): string {
  return join(root, 'catalogs', 'livemcpbench', 'catalog');
}

/** LiveMCPBench's development half of the requests; the other half is held out on purpose. */
export function liveMcpBenchTasksFile(root: string): string {
  return join(root, 'tasks', 'livemcpbench', 'dev.tasks.jsonl');
}
