import type { McpTool } from '../catalog/types.ts';
import type { TokenizerName } from '../tokens/counter.ts';
import {
  ANTHROPIC_TOOL_DEFINITION,
  ANTHROPIC_TOOL_USE,
  ANTHROPIC_TOOL_USE_TOKENS,
  type AnthropicToolChoice,
  type AnthropicToolUseRow,
} from './sources.ts';
import type { HostProfile } from './types.ts';

/**
 * anthropic: a Messages API request's `tools` (name, description, input_schema and, where a
 * definition has them, the tool use examples `input_examples`) plus the
 * tool-use system prompt the API adds when tools are given, whose size Anthropic publishes per
 * model and tool choice (src/hosts/sources.ts). How the API renders the tools for the model is
 * not published, nor is Claude's tokenizer: each tool is counted as the compact JSON of the
 * object the request carries, with the run's --tokenizer standing in for Claude's.
 */

export const ANTHROPIC_TOOL_CHOICES = ['auto', 'none', 'any', 'tool'] as const satisfies readonly AnthropicToolChoice[];
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-4-5';
const DEFAULT_TOOL_CHOICE: AnthropicToolChoice = 'auto';

export function isAnthropicToolChoice(v: string): v is AnthropicToolChoice {
  return (ANTHROPIC_TOOL_CHOICES as readonly string[]).includes(v);
}

/** The published row for a model id (or a dated snapshot of one: `claude-sonnet-4-5-20250929`). */
export function anthropicToolUseRow(model: string): AnthropicToolUseRow | undefined {
  return ANTHROPIC_TOOL_USE_TOKENS.find((r) => r.ids.some((id) => model === id || new RegExp(`^${id}-\\d{8}$`).test(model)));
}

/** The tools entry of a request, as the Messages API takes it: with the tool use examples (`input_examples`) a definition carries. */
export function anthropicTool(d: McpTool): { name: string; description?: string; input_schema: unknown; input_examples?: unknown } {
  return {
    name: d.name,
    ...(d.description === undefined ? {} : { description: d.description }),
    input_schema: d.inputSchema,
    ...(Array.isArray(d.input_examples) ? { input_examples: d.input_examples } : {}),
  };
}

export function anthropicProfile(
  tokenizer: TokenizerName,
  model: string = DEFAULT_ANTHROPIC_MODEL,
  toolChoice: AnthropicToolChoice = DEFAULT_TOOL_CHOICE,
): HostProfile {
  const row = anthropicToolUseRow(model);
  if (!row) throw new Error(`anthropic: no published tool-use system prompt size for model "${model}"`);
  const systemPrompt = toolChoice === 'auto' || toolChoice === 'none' ? row.autoNone : row.anyTool;
  return {
    id: 'anthropic',
    label: `anthropic (${row.model}, tool_choice ${toolChoice})`,
    tokenizer,
    tokenizerNote: `${tokenizer} standing in for Claude's tokenizer, which is not public (the run's --tokenizer)`,
    keepsPromptText: false,
    sends: ['name', 'description', 'inputSchema', 'input_examples'],
    toolTokens: (d, tokens) => tokens.count(JSON.stringify(anthropicTool(d))),
    requestTokens: () => systemPrompt,
    requestTokensNote: `tool-use system prompt (${systemPrompt}, published for ${row.model} with tool_choice ${toolChoice === 'auto' || toolChoice === 'none' ? 'auto/none' : 'any/tool'})`,
    render: (definitions) => definitions.map((d) => JSON.stringify(anthropicTool(d))).join('\n'),
    messageFraming: () => 0,
    sources: [ANTHROPIC_TOOL_USE, ANTHROPIC_TOOL_DEFINITION],
    knownError:
      "Two unknowns: Claude's tokenizer (a stand-in counts) and how the API renders the tools for the model (their request JSON is counted). The system-prompt size is Anthropic's own figure, and it has changed between versions of the page for the same model.",
  };
}
