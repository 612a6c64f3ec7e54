import type { Catalog } from '../catalog/types.ts';
import type { EncoderName } from '../embed/registry.ts';
import type { PipelineSummary } from '../measure/summarize.ts';
import type { TurnRecord } from '../measure/run-pipeline.ts';
import type { ManifestPipeline, RunFile } from '../results/manifest.ts';
import type { TaskSet } from '../studies/types.ts';
import type { Table } from '../table/table.ts';
import type { Task } from '../tasks/types.ts';
import type { TokenizerName } from '../tokens/counter.ts';
import type { HostSpec } from '../hosts/types.ts';

/**
 * Everything a bench unit (one pipeline, one study) reads, as plain data: the same object is
 * used in the main thread and copied to worker threads, so a unit computes the same thing
 * wherever it runs.
 */
export interface BenchInputs {
  root: string;
  seed: number;
  quick: boolean;
  /** Catalog sizes of the scaling study (undefined: its default sweep). */
  scalingSizes?: number[];
  /** What every figure is counted with: the run's host's tokenizer. */
  tokenizer: TokenizerName;
  /** The run's host (src/hosts); its tokenizer is `tokenizer`. */
  host: HostSpec;
  encoderName: EncoderName;
  /** Embedding cache root, already filled by the bench's up-front embedding pass. */
  cacheDir: string;
  resultsDir: string;
  catalog: Catalog;
  taskSets: TaskSet[];
  calibration: Task[];
  history: Task[];
  /** Registry ids of the pipelines this run runs, in registry order. */
  pipelineIds: string[];
  /** Registry ids of the studies this run runs (their per-pipeline steps run with the pipelines). */
  studyIds: string[];
  /** Retriever of the retrieval pipelines (src/retrieval/registry.ts); undefined = DEFAULT_RETRIEVER. */
  retriever?: string;
}

/** What one pipeline unit returns (its turn and event files are already written). */
export interface PipelineRun {
  manifest: ManifestPipeline;
  records: TurnRecord[];
  summary: PipelineSummary;
  /** What each study's per-pipeline step returned (Study.perPipeline), by study id. */
  perStudy: Record<string, unknown>;
  /** The turn and event files it wrote, with their SHA-256 (for the run's manifest). */
  files: RunFile[];
  /** Log lines of the unit, printed by the main thread. */
  log: string[];
  wallSeconds: number;
  /** The files the unit wrote (absolute paths): its record keeps those in the results folder (not part of the result). */
  written?: string[];
}

/** What the studies read besides the inputs: every pipeline's results, in registry order. */
export interface StudyInputs {
  records: [string, TurnRecord[]][];
  summaries: PipelineSummary[];
  /** Each pipeline's PipelineRun.perStudy, by pipeline id. */
  perStudy: [string, Record<string, unknown>][];
}

export interface StudyRun {
  tables: Table[];
  log: string[];
  wallSeconds: number;
  /** As PipelineRun.written. */
  written?: string[];
}

/** A unit of bench work, as sent to a lane. */
export type BenchUnit = { kind: 'pipeline'; id: string } | { kind: 'study'; id: string };

export function unitName(unit: BenchUnit): string {
  return `${unit.kind} ${unit.id}`;
}
