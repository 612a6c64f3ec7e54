import { join } from 'node:path';
import type { Study, StudyContext, TaskSet } from './types.ts';
import type { Catalog } from '../catalog/types.ts';
import type { PipelineContext, PipelineEntry } from '../pipelines/types.ts';
import type { Task } from '../tasks/types.ts';
import { isHostSearch } from '../pipelines/host-search/entries.ts';
import { isCodeExecution } from '../pipelines/code-mode/entries.ts';

/**
 * Helpers shared by the studies in this folder. Nothing here knows which pipeline it drives:
 * pipelines are taken from the registry by group, prepared exactly the way the bench prepares
 * them (src/bench/run.ts), and measured only through the prompt and exposure they return.
 */

/**
 * The 'main' pipelines a study runs: those of the `main` group that the bench ran in this
 * invocation (so `--pipelines` is honoured), without the labelled ablations shown beside them
 * in Table 3 (`ablationOf`). A study's options may override the list (tests run B1 alone).
 */
/**
 * True for a pipeline the bench runs on every seed's task set (the papers' methods); ablation
 * and ADOL variants, the host tool searches and the code-execution methods run on the first
 * only: their records on every seed held the bench over its time and memory budgets, and the
 * tables that show them name the seeds each method ran on (src/measure/seeds-note.ts).
 */
export function runsOnEverySeed(entry: Pick<PipelineEntry, 'group'> & { id?: string }): boolean {
  return entry.group === 'main' && !(entry.id !== undefined && (isHostSearch(entry.id) || isCodeExecution(entry.id)));
}

/** The task sets the bench runs a pipeline on (runsOnEverySeed). */
export function taskSetsRunBy<T extends Pick<TaskSet, 'seed'>>(entry: Pick<PipelineEntry, 'group'>, taskSets: readonly T[]): readonly T[] {
  return runsOnEverySeed(entry) ? taskSets : taskSets.slice(0, 1);
}

export function mainPipelines(ctx: Pick<StudyContext, 'pipelines'>, override?: readonly PipelineEntry[]): PipelineEntry[] {
  if (override) return [...override];
  return ctx.pipelines.filter(isMainMethod);
}

/** A method of the main table, not a labelled ablation of one (Study.pipelinesGiven of a study of the methods). */
export function isMainMethod(entry: Pick<PipelineEntry, 'group' | 'ablationOf'>): boolean {
  return entry.group === 'main' && !entry.ablationOf;
}

/** Study.pipelinesGiven of a study that uses no pipeline. */
export const NO_PIPELINES = (): boolean => false;

/** The pipelines of `entries` a study is given (Study.pipelinesGiven; every one by default). */
export function pipelinesGivenTo<T extends PipelineEntry>(study: Pick<Study, 'pipelinesGiven'>, entries: readonly T[]): T[] {
  return study.pipelinesGiven ? entries.filter((e) => study.pipelinesGiven!(e)) : [...entries];
}

/** True when every tool a task set names exists in the catalog. */
export function tasksFit(tasks: readonly Task[], catalog: Catalog): boolean {
  const ids = new Set(catalog.tools.map((t) => t.id));
  return tasks.every((t) => t.turns.every((u) => u.tools.every((id) => ids.has(id))));
}

/** Tasks whose every tool exists in the catalog (held-out sets on a sub-catalog). */
function tasksInside(tasks: readonly Task[], catalog: Catalog): Task[] {
  const ids = new Set(catalog.tools.map((t) => t.id));
  return tasks.filter((t) => t.turns.every((u) => u.tools.every((id) => ids.has(id))));
}

/** The same task cut to its first `turns` turns (ground truth and servers recomputed). */
export function truncateTask(task: Task, turns: number): Task {
  if (task.turns.length <= turns) return task;
  const kept = task.turns.slice(0, turns);
  const groundTruthTools = [...new Set(kept.flatMap((t) => t.tools))].sort();
  return { ...task, turns: kept, groundTruthTools, servers: [...new Set(groundTruthTools.map((id) => id.split('/')[0]!))].sort() };
}

export interface HeldOutTasks {
  calibrationTasks: readonly Task[];
  historyTasks: readonly Task[];
}

/**
 * A PipelineContext for another catalog, built the way the bench builds it: same tokenizer
 * (through the exact seam-splitting counter, so counts are identical and faster),
 * encoder and seed; the run's held-out calibration and history tasks (restricted to tasks
 * whose tools exist in `catalog`); a work directory of the study's own
 * so side outputs never overwrite the main run's.
 */
export function pipelineContext(ctx: StudyContext, catalog: Catalog, workDir: string, held: HeldOutTasks = ctx): PipelineContext {
  return {
    catalog,
    tokens: ctx.tokens,
    encoder: ctx.encoder,
    retriever: ctx.retriever,
    seed: ctx.seed,
    workDir,
    calibrationTasks: tasksInside(held.calibrationTasks, catalog),
    historyTasks: tasksInside(held.historyTasks, catalog),
  };
}

export function studyWorkDir(ctx: StudyContext, study: string, label: string): string {
  return join(ctx.resultsDir, 'studies', study, label);
}

export { driveTurns } from '../measure/run-pipeline.ts';

/** Milliseconds since `start`, rounded, for log lines. */
export function since(start: number): string {
  return `${((performance.now() - start) / 1000).toFixed(2)} s`;
}

export { mean } from '../stats/bootstrap.ts';
