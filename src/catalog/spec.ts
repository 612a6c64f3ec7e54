import type { JsonSchema, Precondition, ToolAnnotations } from './types.ts';

/**
 * How a server of the synthetic catalog is authored (src/catalog/servers/<server>.ts).
 * The generator turns a ServerSpec into MCP tool definitions and calibrates each server's
 * mean tokens per tool to its published target by appending notes to descriptions.
 */
export interface ToolSpec {
  /** snake_case, self-explaining: `list_pull_requests`. */
  name: string;
  /** Human title, as MCP's `title`. */
  title: string;
  /** Implementer-voice description, 1–3 sentences, as a real server writes it. */
  description: string;
  /**
   * inputSchema properties. Recurring parameters are server-level constants reused by
   * reference, so identical definitions recur the way they do in real servers.
   */
  params: Record<string, JsonSchema>;
  required: string[];
  /** outputSchema properties (the schema is `{type: 'object', properties: output}`). */
  output: Record<string, JsonSchema>;
  annotations: Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'>;
  /** User-intent voice, at most 60 tokens: "Find open pull requests in a repository by label or author". */
  summary: string;
  tags: string[];
  preconditions: Precondition[];
  /** A realistic response body whose keys follow `output`. */
  sampleResponse: unknown;
  /** Tool-specific extra sentences (limits, errors, behaviour); calibration appends them first. */
  notes: string[];
  /**
   * How people ask for this tool, with {slot} placeholders from src/tasks/entities.ts.
   * Worded unlike the summary and the description (synonyms, paraphrase, casual tone).
   */
  intents: string[];
  /** Vague requests that could fit several tools; tasks using them are flagged ambiguous. */
  ambiguousIntents?: string[];
}

export interface ServerSpec {
  /** Short id used in tool ids: `github`, `filesystem`, `database`, `slack`, `web`, `jira`. */
  server: string;
  displayName: string;
  /** Published tool count and mean cl100k tokens per tool definition. */
  targetToolCount: number;
  targetTokensPerTool: number;
  /** Server-wide sentences (pagination, rate limits, auth) that calibration may append. */
  notes: string[];
  tools: ToolSpec[];
}
