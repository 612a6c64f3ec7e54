import { join } from 'node:path';
import type { StudyContext } from '../bench/studies.ts';
import { SYNTHETIC_CATALOG_NAME } from '../catalog/generate.ts';
import { SERVER_SPECS } from '../catalog/servers/index.ts';
import type { Catalog } from '../catalog/types.ts';
import { historySample } from '../commands/prepare-inputs.ts';
import { PIPELINES, type PipelineEntry } from '../pipelines/registry.ts';
import type { PipelineContext } from '../pipelines/types.ts';
import { TaskGenerator } from '../tasks/generate.ts';
import type { Task } from '../tasks/types.ts';

/**
 * Helpers shared by the studies in this folder. Nothing here knows which pipeline it drives:
 * pipelines are taken from the registry by group, prepared exactly the way the bench prepares
 * them (src/commands/bench.ts), and measured only through the prompt and exposure they return.
 */

/**
 * The 'main' pipelines a study runs: those of the registry's `main` group that the bench ran
 * in this invocation (so `--pipelines` is honoured), or every `main` pipeline when no records
 * are available. A study's options may override the list (tests run B1 alone).
 */
export function mainPipelines(ctx: StudyContext, override?: readonly PipelineEntry[]): PipelineEntry[] {
  if (override) return [...override];
  const main = PIPELINES.filter((p) => p.group === 'main');
  if (ctx.records.size === 0) return main;
  return main.filter((p) => ctx.records.has(p.id));
}

/** True when every tool a task set names exists in the catalog. */
export function tasksFit(tasks: readonly Task[], catalog: Catalog): boolean {
  const ids = new Set(catalog.tools.map((t) => t.id));
  return tasks.every((t) => t.turns.every((u) => u.tools.every((id) => ids.has(id))));
}

/** Tasks whose every tool exists in the catalog (held-out sets on a sub-catalog). */
export function tasksInside(tasks: readonly Task[], catalog: Catalog): Task[] {
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
  calibrationTasks: Task[];
  historyTasks: Task[];
}

/**
 * The held-out inputs the bench hands pipelines: for the synthetic catalog, the calibration
 * set (generated against the full evaluated set of `seed`, exactly as prepare-inputs writes
 * it) and the history sample; for a user's catalog, none (as the bench does). Memoised per seed.
 */
const heldOutMemo = new Map<number, HeldOutTasks>();
export function heldOutTasks(catalog: Catalog, seed: number): HeldOutTasks {
  if (catalog.name !== SYNTHETIC_CATALOG_NAME) return { calibrationTasks: [], historyTasks: [] };
  let memo = heldOutMemo.get(seed);
  if (!memo) {
    const generator = new TaskGenerator(SERVER_SPECS);
    memo = { calibrationTasks: generator.generateCalibration(seed, generator.generate(seed)), historyTasks: historySample(seed) };
    heldOutMemo.set(seed, memo);
  }
  return memo;
}

/**
 * A PipelineContext for another catalog, built the way the bench builds it: same tokenizer
 * (through the exact seam-splitting counter, so counts are identical and faster),
 * encoder and seed; the held-out calibration and history tasks of the synthetic catalog
 * (restricted to tasks whose tools exist in `catalog`); a work directory of the study's own
 * so side outputs never overwrite the main run's.
 */
export function pipelineContext(ctx: StudyContext, catalog: Catalog, held: HeldOutTasks, workDir: string): PipelineContext {
  return {
    catalog,
    tokens: ctx.tokens,
    encoder: ctx.encoder,
    seed: ctx.seed,
    workDir,
    calibrationTasks: tasksInside(held.calibrationTasks, catalog),
    historyTasks: tasksInside(held.historyTasks, catalog),
  };
}

export function studyWorkDir(ctx: StudyContext, study: string, label: string): string {
  return join(ctx.resultsDir, 'studies', study, label);
}

export { driveTurns, type DrivenTurn } from '../bench/run-pipeline.ts';

/** Milliseconds since `start`, rounded, for log lines. */
export function since(start: number): string {
  return `${((performance.now() - start) / 1000).toFixed(2)} s`;
}

export { mean } from '../stats/bootstrap.ts';

