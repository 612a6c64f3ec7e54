import type { McpTool } from '../catalog/types.ts';
import type { TokenCounter, TokenizerName } from '../tokens/counter.ts';
import type { HostSource } from './sources.ts';

/**
 * A host profile: one way a tool list reaches a model. Pure: the tokens of a tool are a function
 * of its definition and the profile's tokenizer, nothing else. A pipeline produces prompt text;
 * the profile renders the tool-list part of it (the sections marked PromptSection.toolList).
 */

export const HOST_IDS = ['mcp-json', 'openai-chat', 'openai-responses', 'anthropic', 'custom'] as const;
export type HostId = (typeof HOST_IDS)[number];

/** The profiles every bench compares (the custom one joins when the run's host is custom). */
export const BUILT_IN_HOSTS = ['mcp-json', 'openai-chat', 'openai-responses', 'anthropic'] as const satisfies readonly HostId[];

/** One message of a request, for the per-message framing a profile adds (live mode). */
export interface HostMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  text: string;
}

export interface HostProfile {
  id: HostId;
  /** Names the profile and its settings in tables: `anthropic (Claude Sonnet 4.5, tool_choice auto)`. */
  label: string;
  /** The tokenizer this host's model counts with (or the stand-in for it). */
  tokenizer: TokenizerName;
  /** Why that tokenizer: published for the model, or a stand-in and for what. */
  tokenizerNote: string;
  /** True for mcp-json: the tool list stays in the prompt as the pipeline wrote it, and is counted there. */
  keepsPromptText: boolean;
  /** The top-level tools/list fields the host sends its model ('all' for mcp-json); every other field is dropped. */
  sends: readonly string[] | 'all';
  /** Tokens of one tool as this host renders it, without the once-per-request framing. */
  toolTokens(definition: McpTool, tokens: TokenCounter): number;
  /** Tokens the host adds once to a request that carries at least one tool (0 when it adds none). */
  requestTokens(tokens: TokenCounter): number;
  /** What those request tokens are, for notes: `func_end`, `tool-use system prompt`... */
  requestTokensNote: string;
  /** The text of a tool list as this host sends it to the model, when the source publishes the rendering (not for a count recipe). */
  render?(definitions: readonly McpTool[]): string;
  /** Tokens of a request's messages besides their text (role markers, separators), where the source publishes them; else 0. */
  messageFraming(messages: readonly HostMessage[], tokens: TokenCounter): number;
  sources: readonly HostSource[];
  /** What the profile is known to get wrong, in one or two sentences (docs/hosts.md has the long form). */
  knownError: string;
}

/**
 * How a run chose its host: plain data (it crosses to the bench's worker threads, which build
 * the profile from it). The custom profile's file is read and validated once, into `custom`.
 */
export interface HostSpec {
  id: HostId;
  /** openai-chat, anthropic: the model whose published figures apply (each profile has a default). */
  model?: string;
  /** anthropic: the request's tool_choice (default auto). */
  toolChoice?: string;
  /** custom: the validated profile file. */
  custom?: CustomHostFile;
  /** The run's --tokenizer: mcp-json's, and the stand-in where the provider's tokenizer is not public. */
  tokenizer: TokenizerName;
}

/** A custom profile as its file describes it (src/hosts/custom.ts validates it). */
export interface CustomHostFile {
  /** Where it was read from, for labels and errors. */
  file: string;
  name: string;
  tokenizer?: TokenizerName;
  /** The tools/list fields sent, in this order. */
  fields: string[];
  /** Field renames (`inputSchema` → `parameters`). */
  rename: Record<string, string>;
  /** Tokens added per tool besides its JSON. */
  perToolTokens: number;
  /** Tokens added once to a request with at least one tool. */
  perRequestTokens: number;
  /** Where the user's figures come from (printed in notes). */
  source?: string;
}
