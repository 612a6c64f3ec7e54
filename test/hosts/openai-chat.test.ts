import { describe, expect, it } from 'vitest';
import type { McpTool } from '../../src/catalog/types.ts';
import { HostMeasure } from '../../src/hosts/measure.ts';
import {
  OPENAI_CHAT_MODELS,
  openAiChatModel,
  openAiChatProfile,
  openAiFunctionTokens,
  openAiMessageFraming,
} from '../../src/hosts/openai-chat.ts';
import { hostRequestTokens } from '../../src/hosts/request.ts';
import {
  COOKBOOK_JARGON_MESSAGES,
  COOKBOOK_WEATHER_MESSAGES,
  COOKBOOK_WEATHER_TOOL,
  COOKBOOK_WORKED_EXAMPLES,
  OPENAI_TOOL_CONSTANTS,
} from '../../src/hosts/sources.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';

// Every worked example of OpenAI's "How to count tokens with tiktoken" (src/hosts/sources.ts),
// reproduced to the token: the notebook prints these counts beside the API's own, equal.

const weather: McpTool = {
  name: COOKBOOK_WEATHER_TOOL.name,
  description: COOKBOOK_WEATHER_TOOL.description,
  inputSchema: structuredClone(COOKBOOK_WEATHER_TOOL.parameters) as McpTool['inputSchema'],
};

describe('openai-chat reproduces the cookbook', () => {
  it.each(Object.entries(COOKBOOK_WORKED_EXAMPLES.weatherWithTool))(
    'section 7, the weather tool with its messages, %s: %i prompt tokens',
    (model, published) => {
      const host = new HostMeasure(openAiChatProfile(model));
      const messages = COOKBOOK_WEATHER_MESSAGES.map((m) => ({ role: m.role, text: m.content }));
      expect(hostRequestTokens(host, { system: '', messages, tools: [weather] })).toBe(published);
    },
  );

  it.each(Object.entries(COOKBOOK_WORKED_EXAMPLES.jargonMessages))(
    'section 6, the jargon conversation, %s: %i prompt tokens',
    (model, published) => {
      const tokens = tokenCounter(OPENAI_CHAT_MODELS[openAiChatModel(model)!]!.tokenizer);
      const messages = COOKBOOK_JARGON_MESSAGES.map((m) => ({ role: m.role, text: m.content, ...('name' in m ? { name: m.name } : {}) }));
      const text = messages.reduce((n, m) => n + tokens.count(m.text), 0);
      expect(text + openAiMessageFraming(messages, tokens)).toBe(published);
    },
  );

  it.each(
    COOKBOOK_WORKED_EXAMPLES.strings.flatMap((s) =>
      Object.entries(s)
        .filter(([k]) => k !== 'text')
        .map(([tok, n]) => [s.text, tok, n] as const),
    ),
  )('sections 3 and 5: "%s" is %s tokens in %s', (text, tokenizer, n) => {
    expect(tokenCounter(tokenizer as 'cl100k_base' | 'o200k_base').count(text)).toBe(n);
  });

  it('uses the constants the notebook gives per model, and its encodings', () => {
    expect(OPENAI_CHAT_MODELS['gpt-4o']).toEqual({ constants: OPENAI_TOOL_CONSTANTS['gpt-4o'], tokenizer: 'o200k_base' });
    expect(OPENAI_CHAT_MODELS['gpt-3.5-turbo']).toEqual({ constants: OPENAI_TOOL_CONSTANTS['gpt-4'], tokenizer: 'cl100k_base' });
    expect(OPENAI_TOOL_CONSTANTS['gpt-4o']).toEqual({ funcInit: 7, propInit: 3, propKey: 3, enumInit: -3, enumItem: 3, funcEnd: 12 });
    expect(OPENAI_TOOL_CONSTANTS['gpt-4'].funcInit).toBe(10);
    expect(openAiChatModel('gpt-4o-2024-08-06')).toBe('gpt-4o');
    expect(openAiChatModel('gpt-4o-mini-2024-07-18')).toBe('gpt-4o-mini');
    expect(openAiChatModel('gpt-4-0613')).toBe('gpt-4');
    expect(openAiChatModel('gpt-5')).toBeUndefined();
    expect(() => openAiChatProfile('gpt-5')).toThrow(/no published constants/);
  });
});

describe('openai-chat beyond the cookbook', () => {
  const host = new HostMeasure(openAiChatProfile('gpt-4o'));
  const c = OPENAI_TOOL_CONSTANTS['gpt-4o'];

  it('adds func_end once per request with tools, nothing without', () => {
    expect(host.listTokens([])).toBe(0);
    expect(host.listTokens([weather, weather])).toBe(2 * host.toolTokens(weather) + c.funcEnd);
  });

  it('counts a missing description as empty and a tool without properties as its name line alone', () => {
    const bare: McpTool = { name: 'ping', inputSchema: { type: 'object' } };
    expect(host.toolTokens(bare)).toBe(c.funcInit + host.tokens.count('ping:'));
  });

  it('counts the properties of nested objects and of arrays of objects by the same rule', () => {
    const flat: McpTool = { name: 'f', inputSchema: { type: 'object', properties: { a: { type: 'object' } } } };
    const nested: McpTool = {
      name: 'f',
      inputSchema: { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string', description: 'B.' } } } } },
    };
    const items: McpTool = {
      name: 'f',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'array', items: { type: 'object', properties: { b: { type: 'string', description: 'B.' } } } } },
      },
    };
    const inner = c.propInit + c.propKey + host.tokens.count('b:string:B');
    expect(openAiFunctionTokens({ name: 'f', parameters: nested.inputSchema }, c, host.tokens)).toBe(host.toolTokens(flat) + inner);
    expect(
      host.toolTokens(items) - host.toolTokens({ name: 'f', inputSchema: { type: 'object', properties: { a: { type: 'array' } } } }),
    ).toBe(inner);
  });

  it('sends only name, description and inputSchema: outputSchema and annotations cost nothing', () => {
    const full: McpTool = {
      ...weather,
      title: 'Weather',
      outputSchema: { type: 'object', properties: { t: { type: 'number' } } },
      annotations: { readOnlyHint: true },
    };
    expect(host.toolTokens(full)).toBe(host.toolTokens(weather));
  });
});
