import { bootstrapMean, mean, type Estimate } from '../../stats/bootstrap.ts';
import { quantilesOf } from '../../stats/select-quantiles.ts';
import type { TaskKind } from '../../tasks/types.ts';
import { DEFAULT_SEED, Rng } from '../../util/rng.ts';
import { PROJECTION_PARAMS, SIMULATION, valuesOf, type ProjectionParams } from './params.ts';
import type { DrawCache } from './draws.ts';
import { drawsPerTask, FAILURE_CAUSES, simulateTaskInto, TaskOutcomeSink, type FailureCause } from './simulate.ts';
import { takeUniforms } from './draws.ts';
import { projectionRho, REASONING_KEYS, reasoningFactor, type ProjectionTurn } from './turn-model.ts';
import { cached, runCache } from '../../util/run-scope.ts';

export interface ProjectOptions {
  /** The pipeline rejects calls to tools whose schema is absent (recorded as `hallucinationGate: true` in its settings). */
  hallucinationGate?: boolean;
  /** Offered schemas violating preconditions on a turn (see preconditions.ts); none when absent. */
  violations?: (t: ProjectionTurn) => number;
  /** Bootstrap intervals (off for the sensitivity runs, which only rank means). */
  bootstrap?: boolean;
  /** Shared memo of the random draws (speed only: results are the same without it). */
  draws?: DrawCache;
}

export interface ProjectionResult {
  pipeline: string;
  hallucinationGate: boolean;
  /** Simulation seeds (the study seed and the next ones). */
  simSeeds: number[];
  /** Task runs: (bench seed, task) pairs. */
  tasks: number;
  turns: number;
  /** Share of tasks that succeed (0–1): mean over tasks of the mean over simulation seeds; 95% bootstrap over tasks. */
  successRate: Estimate;
  successByKind: Partial<Record<TaskKind, number>>;
  /** Per-turn latency (s) over every turn of every simulation seed. */
  p50: number;
  p95: number;
  meanLatency: number;
  /** USD per task; 95% bootstrap over tasks. */
  costPerTask: Estimate;
  /** Mean over turns of the share of prompt tokens read from the cache. */
  cacheHitShare: number;
  quality: { mean: Estimate; sd: number; atLeast4: number };
  /** Score at turn SIMULATION.qualityTurn of tasks at least that long. */
  qualityAtTurn: { turn: number; mean: Estimate; n: number };
  failures: {
    /** Simulation runs of the whole task set: simulation seeds × bench seeds. */
    runs: number;
    tasksPerRun: number;
    /** Failed tasks, summed over every run. */
    failed: number;
    byCause: Record<FailureCause, number>;
  };
  meanRho: number;
  meanReasoning: number;
  modelCallsPerTask: number;
  extraCallsPerTask: number;
}

/**
 * Projects one pipeline's measured turns into task success, latency, cost and quality. A pure
 * function of (records, params, seed, options): the same inputs give the same output. Records
 * may hold several bench seeds; a task is a (bench seed, task id) pair.
 *
 * Every task is simulated under SIMULATION.seeds seeds (seed, seed+1, ...). The generator of a
 * task is keyed by the simulation seed, the bench seed and the task id, not by the pipeline,
 * so all pipelines see the same random draws (see simulateTask).
 */
export function projectPipeline(
  records: readonly ProjectionTurn[],
  params: ProjectionParams = PROJECTION_PARAMS,
  seed: number = DEFAULT_SEED,
  options: ProjectOptions = {},
): ProjectionResult {
  const group = groupTasks(records);
  const { tasks, benchSeeds } = group;
  const hallucinationGate = options.hallucinationGate ?? false;
  const offered = offeredViolations(tasks, options.violations ?? noViolations);
  const simSeeds = Array.from({ length: SIMULATION.seeds }, (_, i) => seed + i);
  const bootstrap = options.bootstrap ?? true;

  const taskSuccess: number[] = [];
  const taskCost: number[] = [];
  const taskScore: number[] = [];
  const scores = new Float64Array(tasks.length * simSeeds.length);
  const taskScoreAtTurn: number[] = [];
  // One per simulated turn: every record's turn under every simulation seed, written there by simulateTaskInto.
  const out = new TaskOutcomeSink(new Float64Array(records.length * simSeeds.length), new Float64Array(records.length * simSeeds.length));
  let simulated = 0;
  const byCause = Object.fromEntries(FAILURE_CAUSES.map((c) => [c, 0])) as Record<FailureCause, number>;
  const kindTotals = new Map<TaskKind, { n: number; s: number }>();
  let failed = 0;
  let calls = 0;
  let extra = 0;

  const reasoningKey = REASONING_KEYS.map((k) => valuesOf(params)[k]).join();
  for (let taskIndex = 0; taskIndex < tasks.length; taskIndex++) {
    const task = tasks[taskIndex]!;
    const { turns } = task;
    const first = turns[0]!;
    const { reasoning } = turnFactors(task, params, reasoningKey);
    let successes = 0;
    let c = 0;
    let q = 0;
    // The sum and count of the scores at the quality turn (the mean of the seeds that reach it).
    let atTurnSum = 0;
    let atTurnCount = 0;
    for (let s = 0; s < simSeeds.length; s++) {
      const simSeed = simSeeds[s]!;
      const u = options.draws ? taskDraws(task, simSeed, options.draws) : takeUniforms(new Rng(simSeed, task.label), task.draws);
      simulateTaskInto(turns, params, u, hallucinationGate, offered[taskIndex]!, reasoning, out);
      successes += out.success ? 1 : 0;
      c += out.costUsd;
      q += out.score;
      scores[simulated++] = out.score;
      if (out.scoreAtQualityTurn !== null) {
        atTurnSum += out.scoreAtQualityTurn;
        atTurnCount++;
      }
      if (out.cause !== null) {
        failed++;
        byCause[out.cause]++;
      }
      calls += out.modelCalls;
      extra += out.extraCalls;
    }
    const n = simSeeds.length;
    taskSuccess.push(successes / n);
    taskCost.push(c / n);
    taskScore.push(q / n);
    if (atTurnCount) taskScoreAtTurn.push(atTurnSum / atTurnCount);
    const k = kindTotals.get(first.kind);
    if (k) {
      k.n += 1;
      k.s += successes / n;
    } else kindTotals.set(first.kind, { n: 1, s: successes / n });
  }
  const latencies = out.turnLatencies;
  const cacheShares = out.cacheHitShares;

  const estimate = (values: number[], label: string): Estimate =>
    bootstrap
      ? bootstrapMean(values, seedFor(seed, label), SIMULATION.bootstrapResamples)
      : { mean: mean(values), low: NaN, high: NaN, n: values.length };
  const scoreMean = mean(scores);
  const [p50, p95] = quantilesOf(latencies, [0.5, 0.95]) as [number, number];
  const { rhoSum, reasoningSum } = factorSums(group, params, reasoningKey);
  let good = 0;
  for (let i = 0; i < scores.length; i++) if (scores[i]! >= SIMULATION.goodScore) good++;

  return {
    pipeline: records[0]?.pipeline ?? '',
    hallucinationGate,
    simSeeds,
    tasks: tasks.length,
    turns: records.length,
    successRate: estimate(taskSuccess, 'success'),
    successByKind: Object.fromEntries([...kindTotals].map(([kind, v]) => [kind, v.s / v.n])),
    p50,
    p95,
    meanLatency: mean(latencies),
    costPerTask: estimate(taskCost, 'cost'),
    cacheHitShare: mean(cacheShares),
    quality: {
      mean: estimate(taskScore, 'quality'),
      sd: Math.sqrt(mean(scores.map((x) => (x - scoreMean) ** 2))),
      atLeast4: scores.length ? good / scores.length : NaN,
    },
    qualityAtTurn: { turn: SIMULATION.qualityTurn, mean: estimate(taskScoreAtTurn, 'quality-turn'), n: taskScoreAtTurn.length },
    failures: { runs: simSeeds.length * benchSeeds, tasksPerRun: benchSeeds ? tasks.length / benchSeeds : 0, failed, byCause },
    meanRho: records.length ? rhoSum / records.length : NaN,
    meanReasoning: records.length ? reasoningSum / records.length : NaN,
    modelCallsPerTask: tasks.length ? calls / (tasks.length * simSeeds.length) : NaN,
    extraCallsPerTask: tasks.length ? extra / (tasks.length * simSeeds.length) : NaN,
  };
}

interface TurnFactors {
  reasoning: number[];
  rho: number[];
}

/**
 * A task's reasoning factors and its turns' rho, memoised with the task by the values of the
 * parameters they depend on (most sensitivity runs move another parameter); the last key's
 * answer is kept in front, since a projection asks every task with one key.
 */
function turnFactors(task: SimTask, params: ProjectionParams, key: string): TurnFactors {
  if (task.lastFactors?.key === key) return task.lastFactors.factors;
  let f = task.factors.get(key);
  if (!f) {
    f = { reasoning: task.turns.map((t) => reasoningFactor(t, params)), rho: task.turns.map((t) => projectionRho(t, params)) };
    task.factors.set(key, f);
  }
  task.lastFactors = { key, factors: f };
  return f;
}

/** Sums of every turn's rho and reasoning factor, in task then turn order (memoised with the group, like turnFactors). */
function factorSums(group: GroupedTasks, params: ProjectionParams, key: string): FactorSums {
  let sums = group.sums.get(key);
  if (!sums) {
    let rhoSum = 0;
    let reasoningSum = 0;
    for (const task of group.tasks) {
      const { reasoning, rho } = turnFactors(task, params, key);
      for (const r of rho) rhoSum += r;
      for (const r of reasoning) reasoningSum += r;
    }
    group.sums.set(key, (sums = { rhoSum, reasoningSum }));
  }
  return sums;
}

/**
 * The task's first draws of Rng(simSeed, label) from the shared cache, kept with the task as
 * well: a projection asks for every task under each simulation seed, and a pipeline's 49
 * projections ask again (the tape's first `draws` values never change, so the array the
 * cache gave first stays right even if the cache later grows the tape).
 */
function taskDraws(task: SimTask, simSeed: number, cache: DrawCache): Float64Array {
  let u = task.tapes.get(simSeed);
  if (!u) task.tapes.set(simSeed, (u = cache.uniforms(simSeed, task.label, task.draws)));
  return u;
}

/** A turn as the simulation reads it: a copy of the record's fields, and the record itself (for the caller's traits). */
interface SimTurn extends ProjectionTurn {
  readonly source: ProjectionTurn;
}

/**
 * The copy every simulated turn is: one object literal, so all share one shape. Records reach
 * the projection in several shapes (each pipeline's records carry their own extra fields), and
 * reading them made simulateTask's property loads polymorphic: its optimised code was thrown
 * away again and again ("wrong map" deopts) and ran generic. The values are the record's.
 */
function simTurn(r: ProjectionTurn): SimTurn {
  return {
    pipeline: r.pipeline,
    seed: r.seed,
    taskId: r.taskId,
    kind: r.kind,
    ambiguous: r.ambiguous,
    turn: r.turn,
    turns: r.turns,
    promptTokens: r.promptTokens,
    toolTokens: r.toolTokens,
    systemTokens: r.systemTokens,
    historyTokens: r.historyTokens,
    userTokens: r.userTokens,
    sharedPrefixTokens: r.sharedPrefixTokens,
    needed: r.needed,
    neededPresent: r.neededPresent,
    neededListed: r.neededListed,
    discoveryCalls: r.discoveryCalls,
    listedTools: r.listedTools,
    fullSchemaTools: r.fullSchemaTools,
    listedForm: r.listedForm,
    neededSelected: r.neededSelected,
    source: r,
  };
}

/** A task's turns in order, and the label of its random stream (one string per task, so its hash is computed once). */
interface SimTask {
  turns: readonly SimTurn[];
  label: string;
  /** Uniform draws its simulation takes (drawsPerTask). */
  draws: number;
  /** Memos of turnFactors and taskDraws. */
  factors: Map<string, TurnFactors>;
  lastFactors: { key: string; factors: TurnFactors } | undefined;
  tapes: Map<number, Float64Array>;
}

interface FactorSums {
  rhoSum: number;
  reasoningSum: number;
}

interface GroupedTasks {
  tasks: readonly SimTask[];
  /** Distinct bench seeds of the records. */
  benchSeeds: number;
  /** factorSums by parameter key. */
  sums: Map<string, FactorSums>;
}

// groupTasks by records array: the sensitivity analysis projects the same records dozens of times.
const GROUPED = runCache('projection tasks grouped by records array', () => new WeakMap<readonly ProjectionTurn[], GroupedTasks>());

/** Turns grouped by (bench seed, task id), each task's turns in order; tasks in first-seen order (memoised; read-only). */
function groupTasks(records: readonly ProjectionTurn[]): GroupedTasks {
  const grouped = cached(GROUPED);
  let g = grouped.get(records);
  if (!g)
    grouped.set(records, (g = { tasks: groupTasksOnce(records), benchSeeds: new Set(records.map((r) => r.seed)).size, sums: new Map() }));
  return g;
}

function groupTasksOnce(records: readonly ProjectionTurn[]): SimTask[] {
  const byTask = new Map<string, SimTurn[]>();
  for (const r of records) {
    const key = `${r.seed}\u0000${r.taskId}`;
    let list = byTask.get(key);
    if (!list) byTask.set(key, (list = []));
    list.push(simTurn(r));
  }
  return [...byTask.values()].map((list) => {
    const turns = [...list].sort((a, b) => a.turn - b.turn);
    const label = `projection|${list[0]!.seed}|${list[0]!.taskId}`;
    return { turns, label, draws: drawsPerTask(turns), factors: new Map(), lastFactors: undefined, tapes: new Map() };
  });
}

const noViolations = (): number => 0;
const OFFERED = runCache(
  'offered precondition violations by function and task list',
  () => new WeakMap<(t: ProjectionTurn) => number, WeakMap<readonly SimTask[], Float64Array[]>>(),
);

/**
 * Each task's offered precondition violations per turn (ProjectOptions.violations of the
 * caller's record), asked once per turn and memoised per function and task list: a pipeline's
 * 49 projections simulate each turn ~150 times, and a call and a map lookup each time cost
 * about a second of a bench run.
 */
function offeredViolations(tasks: readonly SimTask[], violations: (t: ProjectionTurn) => number): Float64Array[] {
  const offeredMemo = cached(OFFERED);
  let byTasks = offeredMemo.get(violations);
  if (!byTasks) offeredMemo.set(violations, (byTasks = new WeakMap()));
  let offered = byTasks.get(tasks);
  if (!offered) {
    // The caller's function is asked about its own record, not the copy.
    offered = tasks.map(({ turns }) => Float64Array.from(turns, (t) => violations(t.source)));
    byTasks.set(tasks, offered);
  }
  return offered;
}

/** A bootstrap seed per statistic, so intervals of different statistics use independent streams. */
function seedFor(seed: number, label: string): number {
  let h = seed | 0;
  for (let i = 0; i < label.length; i++) h = (Math.imul(h, 31) + label.charCodeAt(i)) | 0;
  return h;
}
