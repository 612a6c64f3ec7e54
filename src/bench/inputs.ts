import { createHash } from 'node:crypto';
import { loadCatalog } from '../catalog/load.ts';
import type { Catalog } from '../catalog/types.ts';
import { DEFAULT_HOST, hostProfile } from '../hosts/registry.ts';
import type { HostProfile, HostSpec } from '../hosts/types.ts';
import { DEFAULT_RETRIEVER, retrieverByName } from '../retrieval/registry.ts';
import { skipReason } from '../retrieval/types.ts';
import type { TaskSet } from '../studies/types.ts';
import { loadTasks } from '../tasks/load.ts';
import type { Task } from '../tasks/types.ts';
import type { TokenizerName } from '../tokens/counter.ts';
import { InputError } from '../util/input-error.ts';
import { DEFAULT_ENCODER } from '../embed/registry.ts';
import type { BenchInputs } from './types.ts';
import type { BenchOptions } from './options.ts';
import { historySample, tasksForSeed, writeSyntheticCatalog, writeSyntheticTasks } from './synthetic-inputs.ts';

/** What a run measures on: the host it measures for, the catalog and the tasks (phase 1 of a run). */
export interface RunInputs {
  hostSpec: HostSpec;
  host: HostProfile;
  /** What every figure is counted with: the host's tokenizer. */
  tokenizer: TokenizerName;
  catalog: Catalog;
  /** The task sets, one per seed (only the first, cut to QUICK_TASKS, with --quick); none for a catalog without tasks. */
  taskSets: TaskSet[];
  /** Where the tasks came from, for the manifest. */
  tasksSource: string;
  calibration: Task[];
  history: Task[];
}

/** Tasks used by --quick (CI): the first ones of each kind. */
const QUICK_TASKS = { single: 40, multi: 30, long: 6 };

/** The run's host, catalog and tasks: the synthetic ones regenerated, or the user's read and checked. */
export function readInputs(opts: BenchOptions): RunInputs {
  const hostSpec: HostSpec = { id: DEFAULT_HOST, ...opts.host, tokenizer: opts.tokenizer };
  const host = hostProfile(hostSpec);
  // Everything is counted as this host's model counts: openai-chat's gpt-4o with o200k_base whatever --tokenizer says.
  if (host.tokenizer !== opts.tokenizer)
    opts.log(
      `host ${host.label} counts with ${host.tokenizer}; --tokenizer ${opts.tokenizer} applies to the profiles that use the run's tokenizer (host-profiles table)`,
    );
  const read = opts.catalog ? userInputs(opts, opts.catalog) : syntheticInputs(opts);
  checkRetrieverServes(opts.retriever ?? DEFAULT_RETRIEVER, read.catalog);
  const taskSets = opts.quick ? read.taskSets.slice(0, 1).map((s) => ({ seed: s.seed, tasks: quickSubset(s.tasks) })) : read.taskSets;
  return { hostSpec, host, tokenizer: host.tokenizer, ...read, taskSets };
}

type ReadCatalogAndTasks = Pick<RunInputs, 'catalog' | 'taskSets' | 'tasksSource' | 'calibration' | 'history'>;

function syntheticInputs(opts: BenchOptions): ReadCatalogAndTasks {
  const { catalog, dir } = writeSyntheticCatalog(opts.root, opts.seed);
  const written = writeSyntheticTasks(opts.root, opts.seed, catalog);
  const taskSets: TaskSet[] = [{ seed: opts.seed, tasks: written.tasks }];
  for (const s of opts.seeds.filter((x) => x !== opts.seed)) taskSets.push({ seed: s, tasks: tasksForSeed(s) });
  opts.log(`catalog: regenerated ${dir} (seed ${opts.seed}); tasks: regenerated ${written.dir}`);
  return {
    catalog,
    taskSets,
    tasksSource: `generated (${written.dir}, seeds ${opts.seeds.join(', ')})`,
    calibration: written.calibration,
    history: historySample(opts.seed),
  };
}

function userInputs(opts: BenchOptions, catalogPaths: string[]): ReadCatalogAndTasks {
  const catalog = loadCatalog(catalogPaths, opts.limits);
  const taskSets = opts.tasks ? [{ seed: opts.seed, tasks: loadTasks(opts.tasks, catalog, opts.limits) }] : [];
  opts.log(
    `catalog: ${catalogPaths.join(', ')} (${catalog.tools.length} tools, ${catalog.servers.length} servers)${opts.tasks ? `; tasks: ${opts.tasks}` : ''}`,
  );
  return { catalog, taskSets, tasksSource: opts.tasks ?? 'none', calibration: [], history: [] };
}

/** SHA-256 of the run's inputs (RunIdentity.inputs). */
export function inputsFingerprint(inputs: Pick<RunInputs, 'catalog' | 'taskSets' | 'calibration' | 'history'>): string {
  const { catalog, taskSets, calibration, history } = inputs;
  return createHash('sha256').update(JSON.stringify({ catalog, taskSets, calibration, history })).digest('hex');
}

/**
 * The pipelines' retriever must rank this catalog: unlike a comparison row of the retrieval
 * tables (skipped with a note), it is what B3, Tool Attention and ADOL run on, and the user chose it.
 */
function checkRetrieverServes(name: string, catalog: Catalog): void {
  const retriever = retrieverByName(name);
  if (skipReason(retriever, catalog.tools.length))
    throw new InputError(catalog.source, '', `at least ${retriever.minTools} tools for --retriever ${name}`, `${catalog.tools.length}`);
}

function quickSubset(tasks: Task[]): Task[] {
  return (['single', 'multi', 'long'] as const).flatMap((k) => tasks.filter((t) => t.kind === k).slice(0, QUICK_TASKS[k]));
}

/** The plain-data inputs every unit reads, on any lane (copied to worker threads as they are). */
export function unitInputs(
  opts: BenchOptions,
  inputs: RunInputs,
  run: { cacheDir: string; resultsDir: string; pipelines: readonly { id: string }[]; studies: readonly { id: string }[] },
): BenchInputs {
  return {
    root: opts.root,
    seed: opts.seed,
    quick: opts.quick,
    scalingSizes: opts.scalingSizes,
    tokenizer: inputs.tokenizer,
    host: inputs.hostSpec,
    encoderName: opts.encoder ?? DEFAULT_ENCODER,
    cacheDir: run.cacheDir,
    resultsDir: run.resultsDir,
    catalog: inputs.catalog,
    taskSets: inputs.taskSets,
    calibration: inputs.calibration,
    history: inputs.history,
    pipelineIds: run.pipelines.map((e) => e.id),
    studyIds: run.studies.map((s) => s.id),
    retriever: opts.retriever,
  };
}
