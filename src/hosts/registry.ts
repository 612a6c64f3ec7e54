import type { TokenizerName } from '../tokens/counter.ts';
import { anthropicProfile, anthropicToolUseRow, DEFAULT_ANTHROPIC_MODEL, isAnthropicToolChoice } from './anthropic.ts';
import { customProfile } from './custom.ts';
import { mcpJsonProfile } from './mcp-json.ts';
import { DEFAULT_OPENAI_CHAT_MODEL, openAiChatModel, openAiChatProfile, OPENAI_CHAT_MODELS } from './openai-chat.ts';
import { openAiResponsesProfile } from './openai-responses.ts';
import { ANTHROPIC_TOOL_USE_TOKENS, type AnthropicToolChoice } from './sources.ts';
import { BUILT_IN_HOSTS, type HostId, type HostProfile, type HostSpec } from './types.ts';

/** The default host of every paper table. */
export const DEFAULT_HOST: HostId = 'mcp-json';

/** Why a spec cannot be built, as one line (the CLI turns it into a usage error); `customFile`: a custom host file is given. */
export function hostSpecProblem(spec: Pick<HostSpec, 'id' | 'model' | 'toolChoice'>, customFile: boolean): string | undefined {
  if (spec.model !== undefined && spec.id !== 'openai-chat' && spec.id !== 'anthropic')
    return `--host-model applies to --host openai-chat or anthropic, not ${spec.id}`;
  if (spec.toolChoice !== undefined && spec.id !== 'anthropic') return `--tool-choice applies to --host anthropic, not ${spec.id}`;
  if (spec.id === 'openai-chat' && spec.model !== undefined && !openAiChatModel(spec.model))
    return `--host-model: OpenAI's guide publishes constants for ${Object.keys(OPENAI_CHAT_MODELS).join(', ')} (or a dated snapshot of one), not "${spec.model}"`;
  if (spec.id === 'anthropic' && spec.model !== undefined && !anthropicToolUseRow(spec.model))
    return `--host-model: Anthropic publishes the tool-use system prompt for ${ANTHROPIC_TOOL_USE_TOKENS.flatMap((r) => r.ids).join(', ')} (or a dated snapshot of one), not "${spec.model}"`;
  if (spec.toolChoice !== undefined && !isAnthropicToolChoice(spec.toolChoice))
    return `--tool-choice: expected auto, none, any or tool, not "${spec.toolChoice}"`;
  if (spec.id === 'custom' && !customFile) return '--host custom needs --host-file <file>';
  if (customFile && spec.id !== 'custom') return `--host-file describes a custom host: use it with --host custom, not ${spec.id}`;
  return undefined;
}

/** The profile a spec names (throws on a spec hostSpecProblem rejects). */
export function hostProfile(spec: HostSpec): HostProfile {
  const problem = hostSpecProblem(spec, spec.custom !== undefined);
  if (problem) throw new Error(problem);
  switch (spec.id) {
    case 'mcp-json':
      return mcpJsonProfile(spec.tokenizer);
    case 'openai-chat':
      return openAiChatProfile(spec.model ?? DEFAULT_OPENAI_CHAT_MODEL);
    case 'openai-responses':
      return openAiResponsesProfile();
    case 'anthropic':
      // hostSpecProblem checked the tool choice.
      return anthropicProfile(spec.tokenizer, spec.model ?? DEFAULT_ANTHROPIC_MODEL, spec.toolChoice as AnthropicToolChoice | undefined);
    case 'custom':
      return customProfile(spec.custom!, spec.tokenizer);
  }
}

/**
 * The profiles a run compares: every built-in one with its defaults, the run's own host in its
 * place with its settings, and the run's custom host after them.
 */
export function comparedProfiles(spec: HostSpec): HostProfile[] {
  const own = hostProfile(spec);
  const builtIn = BUILT_IN_HOSTS.map((id) => (id === spec.id ? own : hostProfile({ id, tokenizer: spec.tokenizer })));
  return spec.id === 'custom' ? [...builtIn, own] : builtIn;
}

/**
 * The built-in profiles for a live run against `model`: a profile that knows the model uses its
 * published figures, the others their defaults (the note says which).
 */
export function liveProfiles(model: string, tokenizer: TokenizerName): { profiles: HostProfile[]; notes: string[] } {
  const notes: string[] = [];
  const openAi = openAiChatModel(model);
  const claude = anthropicToolUseRow(model);
  if (!openAi) notes.push(`openai-chat counts with ${DEFAULT_OPENAI_CHAT_MODEL}'s constants (the guide publishes none for ${model}).`);
  if (!claude) notes.push(`anthropic counts with ${DEFAULT_ANTHROPIC_MODEL}'s tool-use system prompt (none published for ${model}).`);
  return {
    profiles: BUILT_IN_HOSTS.map((id) =>
      hostProfile({
        id,
        tokenizer,
        ...(id === 'openai-chat' && openAi ? { model } : {}),
        ...(id === 'anthropic' && claude ? { model } : {}),
      }),
    ),
    notes,
  };
}
