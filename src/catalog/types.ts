/**
 * The catalog model. A tool's `definition` is exactly what an MCP `tools/list` result
 * carries (and what is serialised into a prompt); everything else on CatalogTool is harness
 * metadata that never reaches the model unless a pipeline chooses to render it (summaries).
 */

/** A JSON Schema fragment as MCP servers publish it. Kept loose on purpose: real schemas vary. */
export type JsonSchema = { [key: string]: unknown };

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [extra: string]: unknown;
}

/** One entry of an MCP tools/list result. Unknown fields are kept as they are. */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  [extra: string]: unknown;
}

/**
 * A condition on the agent state that must hold before a tool may be offered.
 * - requires_auth: the state holds this auth scope (e.g. `github:write`).
 * - after_tool_output: an earlier tool call in the task produced output from a tool whose
 *   name starts with one of these prefixes (the paper's "only after a search").
 */
export type Precondition = { kind: 'requires_auth'; scope: string } | { kind: 'after_tool_output'; prefixes: string[] };

export interface CatalogTool {
  /** Unique in the catalog: `server/name`. */
  id: string;
  server: string;
  name: string;
  definition: McpTool;
  /** Compact summary in the voice of a user's intent (≤ 60 tokens). */
  summary: string;
  /** `authored` for the synthetic catalog; `derived` when computed from a real description. */
  summarySource: 'authored' | 'derived';
  tags: string[];
  preconditions: Precondition[];
  /** A realistic response body, for output filtering (ADOL requireOutput). */
  sampleResponse?: unknown;
}

export interface Catalog {
  /** e.g. `synthetic-120` or the folder/file name of a user's dump. */
  name: string;
  /** Where it came from: a path, or `generated seed=42`. */
  source: string;
  servers: string[];
  tools: CatalogTool[];
  /**
   * Tools listed again under a name their server already used, left out of `tools`. Only a
   * catalog loaded to be linted keeps going past one (loadCatalog's `repeatedNames`); any
   * other load refuses the file.
   */
  repeated?: RepeatedTool[];
}

/** A tool definition whose (server, name) an earlier one in the catalog already had. */
export interface RepeatedTool {
  /** The id of the tool loaded first, which the catalog keeps. */
  id: string;
  definition: McpTool;
  /** The file and JSON path of the repeat, and the file of the first. */
  file: string;
  path: string;
  firstFile: string;
}

/** The exact serialisation of a tool definition as a tools/list result carries it. */
export function serializeToolDefinition(definition: McpTool): string {
  return JSON.stringify(definition);
}

export function toolId(server: string, name: string): string {
  return `${server}/${name}`;
}
