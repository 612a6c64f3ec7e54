import type { Catalog } from '../catalog/types.ts';
import type { Encoder } from '../embed/types.ts';
import type { Task, TaskTurn } from '../tasks/types.ts';
import type { TokenCounter } from '../tokens/counter.ts';

/**
 * The one way in for every pipeline: given a turn of a task and the agent state, return the
 * exact prompt text that would be sent to the model, split into labelled sections, and what
 * it exposed. Every metric is computed from this return value; measurement never asks which
 * pipeline produced it.
 */

export type SectionRole = 'system' | 'tools' | 'history' | 'user';

export interface PromptSection {
  role: SectionRole;
  /** What this part is: `tool-definitions`, `summary-pool`, `promoted-schemas`, `cli-help`... */
  label: string;
  text: string;
  /** Identical on every turn of a session (and so part of a cacheable prefix when it leads). */
  stable: boolean;
}

/** The prompt is the concatenation of its sections' text, in order: stable parts first. */
export interface Prompt {
  sections: PromptSection[];
}

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

export interface SharedPromptParts {
  system: PromptSection;
  history: PromptSection[];
  user: PromptSection;
}

export interface TurnResult {
  prompt: Prompt;
  exposure: TurnExposure;
  /** Structured events (e.g. Tool Attention's routing events), written to the results. */
  events?: Record<string, unknown>[];
}

export interface PipelineContext {
  catalog: Catalog;
  tokens: TokenCounter;
  /** Present for pipelines that retrieve. */
  encoder?: Encoder;
  seed: number;
  /** Where pipelines may cache or write side outputs (calibration sweeps...). */
  workDir: string;
  /** Held-out tasks for calibrating thresholds; never the evaluated ones. */
  calibrationTasks: Task[];
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
  /** Settings to record in results (k, θ, encoder, index...). */
  describe?(): Record<string, unknown>;
}

export function promptText(prompt: Prompt): string {
  return prompt.sections.map((s) => s.text).join('');
}
