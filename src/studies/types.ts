import { markDefined } from '../util/defined-entry.ts';
import type { Catalog } from '../catalog/types.ts';
import type { Encoder } from '../embed/types.ts';
import type { Table } from '../table/table.ts';
import type { Suite } from '../table/suites.ts';
import type { PipelineEntry } from '../pipelines/types.ts';
import type { Task } from '../tasks/types.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import type { PipelineSummary } from '../measure/summarize.ts';
import type { DrivenTurn, TurnRecord } from '../measure/run-pipeline.ts';
import type { HostMeasure } from '../hosts/measure.ts';

/**
 * A study produces tables from the run's inputs and measured turns (e.g. the ADOL, AACP and
 * key-value schema tables, scaling, caching). Registered in ./registry.ts. A study reads only
 * what this context carries: no globals, no re-generated inputs.
 */
export interface StudyContext {
  root: string;
  catalog: Catalog;
  /** The evaluated tasks of the first seed (empty for a catalog without tasks). */
  tasks: Task[];
  /** Every seed's evaluated task set the bench ran, the run's seed first. */
  taskSets: readonly TaskSet[];
  /** Held-out calibration tasks and the usage-history sample the pipelines were given (never evaluated). */
  calibrationTasks: readonly Task[];
  historyTasks: readonly Task[];
  /** The registry entries of the pipelines this run ran, in table order. */
  pipelines: readonly PipelineEntry[];
  tokens: TokenCounter;
  /** The run's host (src/hosts), counting with `tokens`; Table 3 of every suite measures the tool list as it sends it. Default: mcp-json. */
  host?: HostMeasure;
  encoder?: Encoder;
  /** The run's retriever of B3, Tool Attention and ADOL's semantic retrieval (`--retriever`; undefined: the default), for the pipelines a study runs itself. */
  retriever?: string;
  seed: number;
  quick: boolean;
  /** Catalog sizes (`--scaling-sizes`), for a study that takes them (Study.options); undefined: its default sweep. */
  scalingSizes?: readonly number[];
  /** The suites of the registry the bench runs with (src/table/suites.ts); absent: every built-in one. */
  suites?: readonly Suite[];
  resultsDir: string;
  /** Every pipeline's turn records, by pipeline id (all seeds). */
  records: ReadonlyMap<string, readonly TurnRecord[]>;
  summaries: readonly PipelineSummary[];
  /** What Study.perPipeline returned for each pipeline, by pipeline id, when the bench ran it. */
  perPipeline?: ReadonlyMap<string, unknown>;
  log: (line: string) => void;
}

export interface Study {
  /** Equal to its key in ./registry.ts (one of ./ids.ts). */
  id: string;
  /**
   * The module that defines it (its `import.meta.url`, given to defineStudy): the modules it
   * imports are its code in its results' fingerprint, and a worker lane imports it there (the
   * module exports the value defineStudy returned).
   */
  module?: string;
  /**
   * Which of the run's pipelines it is given (StudyContext.pipelines); absent: every one. Only
   * those reach its fingerprint, so a pipeline added, removed or changed outside them does not
   * run it again (src/bench/plan/fingerprint.ts).
   */
  pipelinesGiven?: (entry: PipelineEntry) => boolean;
  /** The run's options it takes besides the inputs (StudyContext gets only these; their values are in its fingerprint). */
  options?: readonly StudyOption[];
  /** Where and when the bench runs it, and what it embeds up front: the schedule, never a table, depends on it. */
  scheduling?: StudyScheduling;
  /** It ranks with the learned retrievers: the bench trains their models up front, before the lanes start. */
  ranksLearned?: true;
  /** One sentence: what its tables show. */
  description: string;
  /**
   * True when the study reads the pipelines' results (`records`, `summaries`). A study that
   * does not is given none and runs beside the pipelines instead of after them.
   */
  readsPipelineResults: boolean;
  /**
   * True when the study gives no table for a catalog without tasks (`bench --catalog` without
   * `--tasks`): the run says so in its one-line note of what a task file would add.
   */
  needsTasks: boolean;
  /**
   * A study of the results may do its work on each pipeline's results alone here. The bench
   * runs it right after the pipeline, in the lane that ran it: the records are not copied, and
   * the work spreads over the lanes while other pipelines still run, instead of all of it in
   * one lane after the last pipeline. What it returns (plain data) reaches `run` in
   * ctx.perPipeline; `run` must give the same tables with it as without it (when it does the
   * work itself).
   */
  perPipeline?(ctx: PipelineResultsContext): Promise<unknown>;
  /**
   * A study of the results that needs what the records do not keep (the prompt sections
   * themselves) may watch a pipeline's turns on the first seed's tasks as the bench drives
   * them, instead of driving the pipeline again. Undefined for a pipeline it does not study.
   * What `finish` returns reaches `run` in ctx.perPipeline, as perPipeline's does (a study has
   * one or the other); `run` must give the same tables without it.
   */
  watchTurns?(ctx: WatchContext): TurnWatcher | undefined;
  run(ctx: StudyContext): Promise<Table[]>;
}

/**
 * What the bench's scheduler knows of a study besides what it computes. Only the schedule, the
 * memory peak and the wall time depend on it; every table is the same without it (a study
 * embeds what is missing itself, on any lane).
 */
export interface StudyScheduling {
  /**
   * Leaves memory its thread would not hand back: run first on a worker lane, before the main
   * lane's results grow, on a thread apart that the studies so marked share and that ends after
   * the last of them.
   */
  ownThread?: true;
  /** Its working set is large: started first on a worker lane, while the main lane's results are still small, so the two lanes' largest heaps do not meet. */
  largeWorkingSet?: true;
  /** What it will embed besides the run's catalog and tasks: embedded up front with the rest (in large batches, on every core) instead of inside its lane. */
  toEmbed?: (ctx: EmbeddingContext) => StudyEmbeddings;
  /**
   * Its cost in pipeline-seed runs (one pipeline over one seed's tasks), from the bench's timing
   * table; default 1. Only the balance of a sharded run's shards depends on it.
   */
  cost?: number;
}

/** A run option a study may take (Study.options). */
export type StudyOption = 'scalingSizes';

/** A study, with the module that defines it (pass `import.meta.url`): `export const myStudy = defineStudy(import.meta.url, { … })`. */
export function defineStudy(module: string, study: Omit<Study, 'module'>): Study {
  return markDefined({ ...study, module }, 'study');
}

/** What a study's turn watcher is given (Study.watchTurns). */
export interface WatchContext extends Pick<StudyContext, 'tasks' | 'quick' | 'tokens'> {
  entry: PipelineEntry;
}

export interface TurnWatcher {
  /** Every turn of the first seed's tasks, in the order the bench drives them. */
  onTurn(turn: DrivenTurn): void;
  /** Plain data, after the last turn. */
  finish(): unknown;
}

/** One pipeline's results, for Study.perPipeline. */
export interface PipelineResultsContext extends Pick<StudyContext, 'catalog' | 'taskSets' | 'seed'> {
  entry: PipelineEntry;
  records: readonly TurnRecord[];
  summary: PipelineSummary;
}

/** What a study's embedding plan reads (the bench's up-front embedding pass: src/bench/plan/study-hints.ts). */
export type EmbeddingContext = Pick<
  StudyContext,
  'root' | 'catalog' | 'tasks' | 'seed' | 'quick' | 'scalingSizes' | 'pipelines' | 'suites'
>;

/** Catalogs (their tool texts) and task sets (their queries, as a message and as rolling context) a study will embed. */
export interface StudyEmbeddings {
  catalogs?: Catalog[];
  taskSets?: Task[][];
  /** Further texts, embedded as they are. */
  texts?: string[];
}

export interface TaskSet {
  seed: number;
  tasks: Task[];
}
