import type { JsonSchema, McpTool } from '../catalog/types.ts';
import type { TokenCounter, TokenizerName } from '../tokens/counter.ts';
import { isObject, ownValue } from '../util/json.ts';
import { OPENAI_COOKBOOK, OPENAI_MESSAGE_CONSTANTS, OPENAI_TOOL_CONSTANTS, type OpenAiToolConstants } from './sources.ts';
import type { HostMessage, HostProfile } from './types.ts';

/**
 * openai-chat: a chat-completions request's `tools`, counted by the recipe of OpenAI's
 * token-counting guide (num_tokens_for_tools in "How to count tokens with tiktoken"). The model
 * sees the functions as a TypeScript-like namespace; the guide does not print that text but
 * gives constants that reproduce the API's counts: per function `func_init` + the tokens of
 * `name:description`, per parameter list `prop_init`, per property `prop_key` + the tokens of
 * `key:type:description` (an enum adds `enum_init` and per item `enum_item` + its tokens), and
 * `func_end` once per request. A trailing "." of a description is dropped, as the guide does.
 *
 * Beyond the guide (its examples have flat properties with a type and a description only, and
 * fail on anything else): a missing description counts as empty, a type list is joined by
 * " | ", a property without a plain type is `any`, and the properties of nested objects (and of
 * arrays of objects) are counted by the same per-property rule, one level in per nesting. Other
 * keywords (default, format, minimum, required...) are not counted, as in the guide.
 */

/** The models the guide gives constants for, with their encoding (tiktoken.encoding_for_model). */
export const OPENAI_CHAT_MODELS: Record<string, { constants: OpenAiToolConstants; tokenizer: TokenizerName }> = {
  'gpt-4o': { constants: OPENAI_TOOL_CONSTANTS['gpt-4o'], tokenizer: 'o200k_base' },
  'gpt-4o-mini': { constants: OPENAI_TOOL_CONSTANTS['gpt-4o'], tokenizer: 'o200k_base' },
  'gpt-4': { constants: OPENAI_TOOL_CONSTANTS['gpt-4'], tokenizer: 'cl100k_base' },
  'gpt-3.5-turbo': { constants: OPENAI_TOOL_CONSTANTS['gpt-4'], tokenizer: 'cl100k_base' },
};

export const DEFAULT_OPENAI_CHAT_MODEL = 'gpt-4o';

/** The guide's model name for a model id: itself, or a dated snapshot of it (`gpt-4o-2024-08-06`, `gpt-4-0613`). */
export function openAiChatModel(model: string): string | undefined {
  if (Object.hasOwn(OPENAI_CHAT_MODELS, model)) return model;
  return Object.keys(OPENAI_CHAT_MODELS)
    .filter((m) => new RegExp(`^${m.replaceAll('.', '\\.')}-(\\d{4}-\\d{2}-\\d{2}|\\d{4})$`).test(model))
    .sort((a, b) => b.length - a.length)[0];
}

const withoutFinalDot = (s: string) => (s.endsWith('.') ? s.slice(0, -1) : s);

function typeText(schema: Record<string, unknown>): string {
  const t = schema.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t) && t.length && t.every((x) => typeof x === 'string')) return t.join(' | ');
  return 'any';
}

/** The properties nested one level in: an object's own, or an array's items'. */
function nestedProperties(schema: Record<string, unknown>): Record<string, unknown> | undefined {
  if (isObject(schema.properties)) return schema.properties;
  if (isObject(schema.items) && isObject(schema.items.properties)) return schema.items.properties;
  return undefined;
}

function propertiesTokens(properties: Record<string, unknown>, c: OpenAiToolConstants, tokens: TokenCounter): number {
  const keys = Object.keys(properties);
  if (!keys.length) return 0;
  let n = c.propInit;
  for (const key of keys) {
    const value = ownValue(properties, key);
    const p = isObject(value) ? value : {};
    n += c.propKey;
    if (Array.isArray(p.enum)) {
      n += c.enumInit;
      for (const item of p.enum) n += c.enumItem + tokens.count(typeof item === 'string' ? item : JSON.stringify(item));
    }
    const description = typeof p.description === 'string' ? p.description : '';
    n += tokens.count(`${key}:${typeText(p)}:${withoutFinalDot(description)}`);
    const nested = nestedProperties(p);
    if (nested) n += propertiesTokens(nested, c, tokens);
  }
  return n;
}

/** num_tokens_for_tools' count of one function, without func_end. */
export function openAiFunctionTokens(
  fn: { name: string; description?: string; parameters?: JsonSchema },
  c: OpenAiToolConstants,
  tokens: TokenCounter,
): number {
  const properties = isObject(fn.parameters?.properties) ? fn.parameters.properties : {};
  return c.funcInit + tokens.count(`${fn.name}:${withoutFinalDot(fn.description ?? '')}`) + propertiesTokens(properties, c, tokens);
}

/** num_tokens_from_messages' framing: per message tokens_per_message + the role (+ tokens_per_name for a name), and the reply priming. */
export function openAiMessageFraming(messages: readonly (HostMessage & { name?: string })[], tokens: TokenCounter): number {
  const k = OPENAI_MESSAGE_CONSTANTS;
  let n = k.replyPriming;
  for (const m of messages)
    n += k.tokensPerMessage + tokens.count(m.role) + (m.name !== undefined ? k.tokensPerName + tokens.count(m.name) : 0);
  return n;
}

export function openAiChatProfile(model: string = DEFAULT_OPENAI_CHAT_MODEL): HostProfile {
  const known = openAiChatModel(model);
  if (!known) throw new Error(`openai-chat: no published constants for model "${model}"`);
  const { constants, tokenizer } = ownValue(OPENAI_CHAT_MODELS, known)!;
  return {
    id: 'openai-chat',
    label: `openai-chat (${model})`,
    tokenizer,
    tokenizerNote: `${tokenizer}, the encoding of ${known} (tiktoken.encoding_for_model)`,
    keepsPromptText: false,
    sends: ['name', 'description', 'inputSchema'],
    toolTokens: (d: McpTool, tokens) =>
      openAiFunctionTokens({ name: d.name, description: d.description, parameters: d.inputSchema }, constants, tokens),
    requestTokens: () => constants.funcEnd,
    requestTokensNote: `func_end (${constants.funcEnd})`,
    messageFraming: openAiMessageFraming,
    sources: [OPENAI_COOKBOOK],
    knownError:
      "The guide's recipe reproduces its own examples to the token; on real schemas it counts nothing of defaults, formats, bounds, anyOf or $ref, and nested properties by our extension of its rule, so it can miss the tokens of the namespace text OpenAI does not publish.",
  };
}
