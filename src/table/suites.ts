import { join } from 'node:path';
import { markDefined } from '../util/defined-entry.ts';

/**
 * The suite registry: every suite the bench knows, each one entry. A suite is a catalog and a
 * task set; its entry says where they are, how tables and charts name and colour it, and which
 * tables it gets. The bench and its studies read suites only from here (through
 * `BenchRegistry.suites`), and so do the findings block, the charts and the gap notes (by
 * table id), so adding a suite is its entry and its data (docs/extending.md#a-suite).
 *
 * The first suite is the run's own catalog and tasks (synthetic-120 by default, a user's with
 * `--catalog`): its tables carry the bare ids. Every other suite is a fixed set that runs with the
 * default (synthetic) bench; its tables carry `-<id>`.
 */
export interface Suite {
  /** Lower-case id: the suffix of its table ids, its name in the learned reranker's training groups. */
  id: string;
  /** Short name for tables and charts. */
  name: string;
  /** Its colour in charts (CSS). */
  color: string;
  /** The main tables it gets (Table 3 measured and projected, Table 4, host tool search, code mode, ADOL): their ids. */
  measuredTable: string;
  projectedTable: string;
  qualityTable: string;
  /** The host tool search table beside the papers' methods. */
  hostSearchTable: string;
  /** The code mode table: definitions, tool results and code of the code-execution methods. */
  codeModeTable: string;
  /** The retrieval study's table of every retriever on it (`retrieval-<id>`; the run's own suite's is `retrieval-synthetic`). */
  retrievalTable: string;
  /** The module that defines it (given to defineSuite): a worker lane imports the suite there. */
  module?: string;
  /** Whether the main pipelines run on it in the bench (the real-suite study), giving the tables above. */
  mainTables: boolean;
  /**
   * Where a fixed suite's data is; absent for the run's own catalog and tasks. A fixed suite with
   * `mainTables` gets its tables from the real-suite study; one without, the host tool search
   * table from the host-search study. Every fixed suite is in the retrieval study and in the
   * learned reranker's training set.
   */
  data?: SuiteData;
}

/** Where a fixed suite's catalog and tasks are, and how its tables describe them. */
export interface SuiteData {
  /** The catalog: dump files in this order, or a folder of dumps (read in name order). */
  catalog: (root: string) => string | string[];
  tasks: (root: string) => string;
  /** Tasks of a --quick run: the first ones, in file order. */
  quickTasks: number;
  /** The folder under studies/ its pipelines' work files go in, and its log lines' prefix. */
  workDir: string;
  /** In its tables' notes: what the servers are, and where. */
  servers: string;
  /** In its tables' notes: what the tasks are (`hand-written tasks (tasks/real/queries.jsonl`). */
  tasksText: string;
  /** In its tables' notes: the task set as a noun (`the real query set`). */
  taskSetName: string;
  /** In the learned reranker's training set: what the group is. */
  trainingText: string;
  /** In the learned retriever's one-line `fittedOn`: the group in fewer words; absent: `trainingText`. */
  fittedOnText?: string;
  /** Its name in full where a table names it once (the host tool search table); absent: `name`. */
  longName?: string;
  /** In the log line when its files are missing: how to point the bench at them. */
  whenMissing?: string;
  /** What the retrieval study measures on it besides its `retrieval-<id>` table; absent: nothing more. */
  retrieval?: SuiteRetrieval;
}

/** A fixed suite's part in the retrieval study. */
export interface SuiteRetrieval {
  /** R@10 by server (`retrieval-<id>-by-server`). */
  byServer?: boolean;
  /** The query-form ablation by turn position (`retrieval-<id>-query-form`). */
  queryForm?: boolean;
  /** The default retriever's R@10 target, checked in the generalisation table's notes (measured and reported; nothing is tuned to it). */
  r10Target?: number;
}

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

/**
 * A suite's entry, with the module that defines it (pass `import.meta.url`, and export the value
 * from there: a worker lane imports it) and its table ids made from its id:
 * `table3-measured-<id>`, and the bare ids for the run's own suite.
 */
export function defineSuite(module: string, entry: Pick<Suite, 'id' | 'name' | 'color' | 'mainTables' | 'data'>, own = false): Suite {
  const id = (base: string) => (own ? base : `${base}-${entry.id}`);
  const suite: Suite = {
    ...entry,
    module,
    measuredTable: id('table3-measured'),
    projectedTable: id('table3-projected'),
    qualityTable: id('table4-projected'),
    hostSearchTable: id('host-search'),
    codeModeTable: id('code-mode'),
    retrievalTable: own ? 'retrieval-synthetic' : `retrieval-${entry.id}`,
  };
  return markDefined(suite, 'suite');
}

export const SYNTHETIC_SUITE: Suite = defineSuite(
  import.meta.url,
  { id: 'synthetic-120', name: 'synthetic-120', color: '#3b6ea8', mainTables: true },
  true,
);

/** The six primary real dumps (267 tools) with the hand-written real query set. */
export const REAL_SUITE: Suite = defineSuite(import.meta.url, {
  id: 'real',
  name: 'real six servers',
  color: '#5b9a68',
  mainTables: true,
  data: {
    catalog: realPrimaryDumps,
    tasks: (root) => join(root, 'tasks', 'real', 'queries.jsonl'),
    quickTasks: 60,
    workDir: 'real-suite',
    servers: 'real servers (catalogs/real)',
    tasksText: 'hand-written tasks (tasks/real/queries.jsonl',
    taskSetName: 'the real query set',
    trainingText: 'tasks/real/queries.jsonl over the six real dumps',
    fittedOnText: 'tasks/real over the six real dumps',
    whenMissing: `set ${REAL_CATALOGS_ENV} to a folder of the dumps`,
    retrieval: { byServer: true, queryForm: true, r10Target: 0.75 },
  },
});

/** LiveMCPBench's 70 dumps (527 tools, Apache-2.0, catalogs/livemcpbench/README.md) with the development half of its requests; the other half is held out on purpose. */
export const LIVEMCPBENCH_SUITE: Suite = defineSuite(import.meta.url, {
  id: 'livemcpbench',
  name: 'LiveMCPBench dev half',
  color: '#c77c2e',
  mainTables: false,
  data: {
    catalog: (root) => join(root, 'catalogs', 'livemcpbench', 'catalog'),
    tasks: (root) => join(root, 'tasks', 'livemcpbench', 'dev.tasks.jsonl'),
    quickTasks: 47,
    workDir: 'host-search',
    servers: 'real servers (catalogs/livemcpbench)',
    tasksText: 'labelled requests (tasks/livemcpbench/dev.tasks.jsonl',
    taskSetName: 'the LiveMCPBench development half',
    trainingText: 'the LiveMCPBench development half over its 70 dumps',
    fittedOnText: 'the LiveMCPBench development half',
    longName: 'LiveMCPBench development half',
    retrieval: { r10Target: 0.55 },
  },
});

/** Every suite, the run's own first: the order of the findings block and of the suites' tables. */
export const SUITES: readonly Suite[] = [SYNTHETIC_SUITE, REAL_SUITE, LIVEMCPBENCH_SUITE];

/**
 * A suite's name in a run on `catalog`: the first suite's tables hold the run's own catalog
 * (synthetic-120 by default, a user's with `--catalog`); the others are fixed sets.
 */
export function suiteNameIn(suite: Suite, catalog: string | undefined): string {
  return !suite.data && catalog ? catalog : suite.name;
}
