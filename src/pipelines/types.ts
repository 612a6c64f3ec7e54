import { markDefined } from '../util/defined-entry.ts';
import type { Prompt, SharedPromptParts, TurnTranscript } from '../prompt/types.ts';
import type { Catalog } from '../catalog/types.ts';
import type { PipelineSettings } from '../results/pipeline-settings.ts';
import type { Encoder } from '../embed/types.ts';
import type { Task, TaskTurn } from '../tasks/types.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import type { ListedForm } from '../sim/selection.ts';

/**
 * The one way in for every pipeline: given a turn of a task and the agent state, return the
 * exact prompt text that would be sent to the model, split into labelled sections, and what
 * it exposed. Every metric is computed from this return value; measurement never asks which
 * pipeline produced it.
 */

export interface DiscoveryCall {
  /** e.g. `tooltax --list` or `tooltax --help github/list_pull_requests`. */
  command: string;
  /** The output that entered the context. */
  output: string;
}

export interface TurnExposure {
  /** Tool ids the model can see by at least their name this turn. */
  listedTools: string[];
  /** Tool ids whose full definition is in the prompt this turn. */
  fullSchemaTools: string[];
  /** Discovery calls made this turn (their outputs are in the prompt from now on). */
  discoveryCalls: DiscoveryCall[];
  /** How tools listed without their full definition appear; default `summary`. */
  listedForm?: ListedForm;
  /**
   * Tools this turn's discovery calls show the model choosing itself (B4 ran `--help` on them
   * after reading `--list`): the choice is already in the prompt, so the projection does not
   * draw it again.
   */
  selectedTools?: string[];
}

export interface AgentState {
  authScopes: ReadonlySet<string>;
  /** Names (not ids) of tools whose output the agent already holds, in call order. */
  toolOutputs: readonly string[];
}

export interface TurnInput {
  task: Task;
  turnIndex: number;
  turn: TaskTurn;
  state: AgentState;
  /** The shared, pipeline-independent parts of the prompt (system text, history so far). */
  shared: SharedPromptParts;
}

export interface TurnResult {
  prompt: Prompt;
  exposure: TurnExposure;
  /** Structured events (e.g. Tool Attention's routing events), written to the results. */
  events?: Record<string, unknown>[];
  /**
   * What the finished turn leaves in the context, when the host keeps something else than the
   * direct calls and every result (src/prompt/shared-parts.ts, directTranscript): code mode
   * keeps the code and what it printed. Its section is the history from the next turn on.
   */
  transcript?: TurnTranscript;
}

export interface PipelineContext {
  catalog: Catalog;
  tokens: TokenCounter;
  /** Present for pipelines that retrieve. */
  encoder?: Encoder;
  /** Retriever name (src/retrieval/registry.ts) of the retrieval pipelines; default DEFAULT_RETRIEVER. */
  retriever?: string;
  seed: number;
  /** Where pipelines may cache or write side outputs (calibration sweeps...). */
  workDir: string;
  /** Held-out tasks for calibrating thresholds; never the evaluated ones. */
  calibrationTasks: Task[];
  /**
   * The catalog the calibration tasks are over, when it is not `catalog` (a suite with no
   * held-out tasks of its own: θ is calibrated there and carried over). Default: `catalog`.
   */
  calibrationCatalog?: Catalog;
  /**
   * A separate sample of past usage (what a curator would look at), never the evaluated
   * tasks; empty when the user's catalog comes without one.
   */
  historyTasks: Task[];
}

export interface Pipeline {
  /** Stable id used in file names: `b1-full-schema`. */
  readonly id: string;
  /** Label used in tables: `B1 Full-Schema`. */
  readonly label: string;
  /** Once per catalog, before any task. */
  prepare?(ctx: PipelineContext): Promise<void>;
  /** At the start of each task: reset per-session state. */
  startTask?(task: Task): void;
  turn(input: TurnInput): Promise<TurnResult>;
  /** How it ran, typed: written to the run manifest, read by studies and reports. */
  describe?(): PipelineSettings;
  /**
   * A pipeline whose model searches deferred tools (its settings' `toolSearch`): the tool ids
   * its search returns for a query or a regex pattern the model wrote. Live mode answers a
   * client-executed search with it.
   */
  search?(input: { query: string } | { pattern: string }): Promise<string[]>;
  /**
   * A pipeline with search tools of its own (search-execute's `search`, code-mode-files'
   * `search_tools`): what it shows for a call of one, the same text the bench puts in the
   * prompt for that search; undefined for a tool it does not have or arguments it cannot take.
   * Live mode answers the model's calls with it.
   */
  answerTool?(name: string, input: Record<string, unknown>): Promise<string | undefined>;
}

export type { Prompt, PromptSection, SectionRole, SharedPromptParts, TurnTranscript } from '../prompt/types.ts';
export { promptText } from '../prompt/types.ts';

/** A registered pipeline with its typed metadata (src/pipelines/registry.ts, checked when it loads). */
export type PipelineEntry = PipelineEntryFields & PipelineOrigin;

interface PipelineEntryFields {
  /** Equal to the id of the pipeline `create` returns. */
  id: string;
  /**
   * Which table the pipeline belongs to: `main` (Table 3 and everything downstream),
   * `ablation` (Table 5 variants) or `adol` (the ADOL mechanism table).
   */
  group: PipelineGroup;
  /** Short code for narrow tables and charts (`B1`, `TA`); defaults to the id. */
  code?: string;
  /** The reference the others are compared with (reduction vs B1). One per registry. */
  baseline?: boolean;
  /**
   * A labelled ablation shown in Table 3 beside the method it varies (e.g. B4 with oracle
   * discovery): it is reported, but not ranked against the methods (sensitivity, best method).
   */
  ablationOf?: string;
  /** One sentence: what the pipeline puts in the prompt. */
  description: string;
  create: () => Pipeline;
  /**
   * The module that defines the entry (its `import.meta.url`, given to definePipeline): the
   * modules it imports are the pipeline's code in its results' fingerprint
   * (src/bench/plan/fingerprint.ts), and a worker lane imports the entry there. Absent: its
   * results are never restored, and a run of it has one lane.
   */
  module?: string;
}

/**
 * A method from the literature names where it is published (paper, draft or pattern, with the
 * section), so a reader can check what it is compared with; a variant defined here (an
 * ablation, a preset, your own baseline) has no reference.
 */
type PipelineOrigin = { published: true; reference: string } | { published?: false; reference?: undefined };

export type PipelineGroup = 'main' | 'ablation' | 'adol';

/**
 * A registry entry, with the module that defines it (pass `import.meta.url`), to be exported
 * from there: `export const myEntry = definePipeline(import.meta.url, { … })`. A worker lane
 * imports the module and takes the exported value (src/bench/execute/worker.ts).
 */
export function definePipeline(module: string, entry: DefinedFields): PipelineEntry {
  return markDefined({ ...entry, module }, 'pipeline');
}

/** Entries defined in one module, exported there as this array: definePipeline on each. */
export function definePipelines(module: string, entries: readonly DefinedFields[]): PipelineEntry[] {
  return entries.map((e) => definePipeline(module, e));
}

/** What an entry's definition gives: every field but the module. */
type DefinedFields = Omit<PipelineEntryFields, 'module'> & PipelineOrigin;

export type { GateSettings, PipelineSettings, RetrievalSettings, ToolSearchSettings } from '../results/pipeline-settings.ts';
