import { ANTHROPIC_TOOL_SEARCH_BETA } from '../pipelines/host-search/shapes.ts';
import { CODE_EXECUTION_TOOL } from '../pipelines/code-mode/tools.ts';
import type { ChatRequest } from './types.ts';

/**
 * The client tools of an Anthropic Messages request as Anthropic documents its advanced tool use
 * (docs/reference/request-shapes.md): each tool's `input_examples` (tool use examples), and for
 * programmatic tool calling the code execution tool `{"type": "code_execution_20250825", "name":
 * "code_execution"}` in place of the client's own code tool, with `allowed_callers` on every
 * other tool so that the code run in Anthropic's container may call it.
 */

/** The code execution tool version programmatic tool calling names for Claude Opus 4.5 and Sonnet 4.5. */
const ANTHROPIC_CODE_EXECUTION = { type: 'code_execution_20250825', name: 'code_execution' } as const;

/** The beta both features are documented under (the same as the tool search tool's). */
const ADVANCED_TOOL_USE_BETA = ANTHROPIC_TOOL_SEARCH_BETA;

/** A request's client tools as Anthropic takes them. */
export function anthropicClientTools(r: ChatRequest): Record<string, unknown>[] {
  return r.tools.map((t) =>
    r.programmatic && t.name === CODE_EXECUTION_TOOL.name
      ? { ...ANTHROPIC_CODE_EXECUTION }
      : {
          name: t.name,
          description: t.description,
          input_schema: t.parameters,
          ...(t.inputExamples ? { input_examples: t.inputExamples } : {}),
          ...(r.programmatic ? { allowed_callers: [ANTHROPIC_CODE_EXECUTION.type] } : {}),
        },
  );
}

/** Whether a request uses a feature of the advanced tool use beta (tool search, tool use examples, programmatic calls): its header. */
export function anthropicBetaHeaders(r: ChatRequest): Record<string, string> {
  const advanced = r.toolSearch !== undefined || r.programmatic === true || r.tools.some((t) => t.inputExamples);
  return advanced ? { 'anthropic-beta': ADVANCED_TOOL_USE_BETA } : {};
}

/** Server tool blocks of a response that are not a tool search (code execution: its `server_tool_use` and result blocks), in order. */
export function anthropicCodeExecutionBlocks(content: readonly { type?: string; name?: unknown }[]): unknown[] {
  return content.filter(
    (c) =>
      // `code_execution`, and the `bash_code_execution` / `text_editor_code_execution` parts of the tool.
      (c.type === 'server_tool_use' && typeof c.name === 'string' && c.name.endsWith(ANTHROPIC_CODE_EXECUTION.name)) ||
      (typeof c.type === 'string' && c.type.endsWith('code_execution_tool_result')),
  );
}
