/**
 * What a pipeline records about how it ran: typed, written to the run manifest, read by studies
 * and reports. Lives with the results because reports read it without knowing any pipeline.
 */

/** How a retrieval pipeline ranks and cuts tools. */
export interface RetrievalSettings {
  /** What scores tools: an encoder name (`use-lite`) or a retriever name. */
  encoder: string;
  encoderDescription?: string;
  /** Vector index that ran (faiss IndexFlatIP or the exact scan), with a note when it fell back. */
  index?: string;
  indexNote?: string;
  k: number;
  /** Score threshold, when the method keeps only tools scoring at least θ. */
  theta?: number;
  /** `calibrated (...)` or `fixed`. */
  thetaSource?: string;
  /** What text of a tool is embedded. */
  toolText: string;
  /** What text of the turn is the query. */
  query: string;
  /** The retriever (src/retrieval/registry.ts) that ranked tools, when not the encoder's cosine alone. */
  retriever?: string;
  retrieverDescription?: string;
  /** How scores were put on the θ scale (cosine, probability, or divided by the query's best). */
  scoreScale?: string;
}

/** How a discovery pipeline (B4, the wrapper files of code-mode-files) chooses which tool help to read. */
export interface DiscoverySettings {
  mode: 'policy' | 'oracle';
  /** The program the model types (`tooltax`), or the commands of the file tree (`find, cat`). */
  cli: string;
  /** What live mode's shell runs: the CLI fronting the tools (default), or the wrapper file tree (`find …`, `cat …`). */
  shell?: 'cli' | 'files';
  /** One sentence: the rule that chose the help calls. */
  rule: string;
}

/**
 * How a pipeline's model finds deferred tools with a host's tool search (src/pipelines/host-search):
 * what live mode declares in the request instead of the definitions.
 */
export interface ToolSearchSettings {
  /** Who runs the search: the provider (its tool search tool) or the client (the pipeline's own search, answered by live mode). */
  execution: 'server' | 'client';
  /** The provider whose request shape a server search is (`anthropic`: the tool search tool; `openai`: Responses `tool_search` with namespaces); a client search runs on either. */
  provider?: 'anthropic' | 'openai';
  /** Anthropic's variant. */
  variant?: 'bm25' | 'regex';
  /** Tools a search returns at most. */
  references: number;
}

/** How a code pipeline's code runs in live mode. */
export interface CodeExecutionSettings {
  /**
   * Programmatic tool calling: the catalog tools are sent as tools the code may call. Where the
   * provider runs code itself (Anthropic's code execution tool, `allowed_callers` on each tool)
   * the code runs there; elsewhere in the client's sandbox.
   */
  programmatic: boolean;
}

export interface GateSettings {
  /** Calls to tools that were not promoted are rejected. */
  hallucination: boolean;
  /** Tools whose preconditions do not hold in the agent state are never promoted. */
  preconditions: boolean;
}

/**
 * What a pipeline records about how it ran. Typed fields are what studies and reports read;
 * `details` is for the human reader of run.json and no code reads it by key.
 */
/** One part of a pipeline fitted on data (a trained ranker, a calibrated θ, a curated subset), and on what. */
export interface FittedPart {
  /** e.g. `retriever learned`, `θ`, `tool subset`. */
  part: string;
  /** What it was fitted on, or what stands in when nothing could be (never the evaluated tasks). */
  on: string;
}

export interface PipelineSettings {
  /** Everything the pipeline fitted before the evaluated tasks, and on what; empty or absent when nothing. */
  fitted?: FittedPart[];
  retrieval?: RetrievalSettings;
  gates?: GateSettings;
  discovery?: DiscoverySettings;
  toolSearch?: ToolSearchSettings;
  codeExecution?: CodeExecutionSettings;
  /** The θ calibration the pipeline ran (Tool Attention), with every point of the sweep. */
  calibration?: ThresholdCalibration;
  /** ADOL counts that the ADOL study prints. */
  adol?: { externalTemplates?: { templates: number; tokens: number }; tagFallbackTurns?: number };
  details: Record<string, unknown>;
}

export interface ThresholdPoint {
  theta: number;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  /** tp / (tp + fp); 0 when nothing is selected. */
  precision: number;
  /** tp / (tp + fn); 0 when there is nothing relevant. */
  recall: number;
  /** 2tp / (2tp + fp + fn); 0 when tp = 0. */
  f1: number;
}

/** A θ calibration: the F1 sweep over held-out (query, tool) pairs and the θ it chose. */
export interface ThresholdCalibration {
  encoder: string;
  encoderDescription: string;
  /** How the tool side was embedded. */
  toolText: string;
  /** Queries (calibration turns that need a tool) and (query, tool) pairs scored. */
  queries: number;
  pairs: number;
  positives: number;
  step: number;
  chosen: ThresholdPoint;
  points: ThresholdPoint[];
  /**
   * How θ was chosen: `f1` (max F1, the paper's rule) or `coverage` (the highest θ at which at
   * least `target` of the calibration turns keep every needed tool at or above θ).
   */
  policy?: { kind: 'f1' } | { kind: 'coverage'; target: number };
  /** Per point (aligned with points): share of calibration turns whose needed tools all score ≥ θ. */
  coverage?: number[];
  /** How scores were normalised before the sweep. */
  scoreScale?: string;
  published: { theta: number; minilmRange: readonly [number, number] };
}
