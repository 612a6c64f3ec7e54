import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { loadCatalog } from '../../catalog/load.ts';
import { SERVER_SPECS } from '../../catalog/servers/index.ts';
import type { CatalogTool } from '../../catalog/types.ts';
import { TaskGenerator } from '../../tasks/generate.ts';
import { loadTasks } from '../../tasks/load.ts';
import { loadSuite } from '../../tasks/bundled-suites.ts';
import { SUITES, type Suite } from '../../table/suites.ts';
import { SYNTHETIC_CATALOG_NAME } from '../../catalog/generate.ts';
import type { Task } from '../../tasks/types.ts';
import { turnQuery, type QueryMode } from '../query.ts';
import { DEFAULT_SEED } from '../../util/rng.ts';
import { cached, runCache } from '../../util/run-scope.ts';

/** One labelled source the learned reranker may train on: a catalog and labelled turns over it. */
export interface TrainingGroup {
  /** The suite it belongs to (`synthetic`, else a fixed suite's id: `real`, `livemcpbench`): left out whole when that catalog is ranked. */
  suite: string;
  tools: readonly CatalogTool[];
  /** Labelled turns with their query text; `taskId` names where each came from. */
  turns: readonly TrainingTurn[];
  /** What the turns are, in a few words. */
  source: string;
}

/** What the learned reranker trains on: one or more labelled sources, each over its own catalog. */
export interface TrainingSet {
  groups: readonly TrainingGroup[];
  source: string;
}

export interface TrainingTurn {
  taskId: string;
  query: string;
  tools: readonly string[];
}

/** Every tool turn of the tasks, asked as `mode` builds the query. */
function trainingTurns(
  tasks: readonly Task[],
  mode: QueryMode,
  idPrefix = '',
  keep: (user: string) => boolean = () => true,
): TrainingTurn[] {
  return tasks.flatMap((t) =>
    t.turns.flatMap((turn, i) =>
      turn.tools.length > 0 && keep(turn.user)
        ? [{ taskId: `${idPrefix}${t.id}`, query: turnQuery(t.turns, i, mode), tools: turn.tools }]
        : [],
    ),
  );
}

/** Seeds of the evaluated synthetic task sets (MEASUREMENT_PARAMS.seeds); their messages are kept out of training. */
const EVALUATED_SEEDS = [42, 43, 44];

const REPO_ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..', '..');

/**
 * The synthetic source: the committed seed-42 synthetic catalog, its held-out calibration tasks
 * (`tasks/calibration.jsonl`, ids `cal…`) and the usage-history sample (seed 42, the same 500
 * tasks B2's curator reads; ids prefixed `history:`). Never the evaluated synthetic tasks: a
 * calibration or history turn whose exact message occurs in an evaluated task set (seeds
 * 42–44) is dropped too.
 */
function syntheticGroup(mode: QueryMode, root: string): TrainingGroup {
  const catalog = loadCatalog(join(root, 'catalogs', SYNTHETIC_CATALOG_NAME));
  const calibration = loadTasks(join(root, 'tasks', 'calibration.jsonl'), catalog);
  const generator = new TaskGenerator(SERVER_SPECS);
  const evaluated = new Set(EVALUATED_SEEDS.flatMap((s) => generator.generate(s).flatMap((t) => t.turns.map((u) => u.user))));
  const history = generator.generate(DEFAULT_SEED, 'history');
  const unseen = (user: string) => !evaluated.has(user);
  return {
    suite: 'synthetic',
    tools: catalog.tools,
    turns: [...trainingTurns(calibration, mode, '', unseen), ...trainingTurns(history, mode, 'history:', unseen)],
    source: `${SYNTHETIC_CATALOG_NAME}: tasks/calibration.jsonl + the ${history.length}-task usage-history sample`,
  };
}

/** A bundled suite as a training source (none when its files are missing: an override folder without them). */
function suiteGroup(
  suite: string,
  source: string,
  loaded: { catalog: { tools: readonly CatalogTool[] }; tasks: readonly Task[] } | undefined,
  mode: QueryMode,
): TrainingGroup[] {
  return loaded ? [{ suite, tools: loaded.catalog.tools, turns: trainingTurns(loaded.tasks, mode, `${suite}:`), source }] : [];
}

/** Every labelled source, in a fixed order (memoised per query mode and root: they are read from disk once). */
const ALL_GROUPS = runCache('training groups by query mode, root and suites', () => new Map<string, TrainingGroup[]>());

/**
 * Forgets the loaded sources. The first stages fitted on their tool lists while training (BM25
 * indexes, dense vectors) are memoised by list: once the models are on disk they
 * are garbage, and the next ask reads the same sources again (only to hash them).
 */
export function releaseTrainingGroups(): void {
  cached(ALL_GROUPS).clear();
}
/** The synthetic source, then every fixed suite of `suites` (the suite registry, src/table/suites.ts) whose files are there. */
export function trainingGroups(mode: QueryMode, root = REPO_ROOT, suites: readonly Suite[] = SUITES): TrainingGroup[] {
  const key = `${mode}\0${root}\0${suites.map((s) => s.id).join('\0')}`;
  const allGroups = cached(ALL_GROUPS);
  let groups = allGroups.get(key);
  if (!groups)
    allGroups.set(
      key,
      (groups = [
        syntheticGroup(mode, root),
        ...suites.flatMap((s) => (s.data ? suiteGroup(s.id, s.data.trainingText, loadSuite(s, root), mode) : [])),
      ]),
    );
  return groups;
}

/**
 * Share of a catalog's tools (either side's) that makes a training source "the same catalog":
 * the synthetic catalog and LiveMCPBench share 10 tool ids (2–8%), a catalog built around the
 * real GitHub dump shares 44% of the real source.
 */
const SAME_CATALOG_SHARE = 0.25;

/** True when the source is over the catalog being ranked (or most of it): it must not train the model that ranks it. */
export function sameCatalog(group: Pick<TrainingGroup, 'tools'>, ranked: readonly Pick<CatalogTool, 'id'>[]): boolean {
  const ids = new Set(ranked.map((t) => t.id));
  let shared = 0;
  for (const t of group.tools) if (ids.has(t.id)) shared++;
  return shared > 0 && (shared >= SAME_CATALOG_SHARE * group.tools.length || shared >= SAME_CATALOG_SHARE * ids.size);
}

/**
 * The training set for ranking `ranked`: every labelled source except those over the same
 * catalog (leave-one-suite-out: the synthetic suite is ranked by a model trained on the real
 * and LiveMCPBench requests, and so on; a catalog the harness has never seen gets all three).
 */
export function trainingSetFor(
  ranked: readonly Pick<CatalogTool, 'id'>[],
  mode: QueryMode,
  root = REPO_ROOT,
  suites: readonly Suite[] = SUITES,
): TrainingSet {
  const groups = trainingGroups(mode, root, suites).filter((g) => !sameCatalog(g, ranked));
  return { groups, source: describeGroups(groups) };
}

function describeGroups(groups: readonly TrainingGroup[]): string {
  return groups.length ? groups.map((g) => `${g.source} (${g.turns.length.toLocaleString('en-US')} turns)`).join('; ') : 'nothing';
}

/** What the training rule is over `suites`, in one line (the learned retriever's `fittedOn`). */
export function trainingDescription(suites: readonly Suite[]): string {
  const fixed = suites.flatMap((s) => (s.data ? [s.data.fittedOnText ?? s.data.trainingText] : []));
  return `every labelled source but the ranked catalog (leave-one-suite-out): ${[`${SYNTHETIC_CATALOG_NAME} calibration + usage history`, ...fixed].join(', ')}; never an evaluated synthetic task`;
}

/** The default training rule (over the built-in suites), in one line. */
export const DEFAULT_TRAINING_DESCRIPTION = trainingDescription(SUITES);
