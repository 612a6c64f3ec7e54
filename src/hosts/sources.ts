/**
 * The published figures the host profiles are built from, with where each comes from. Every
 * number here is also in docs/reference/host-sources.md (test/hosts/sources.test.ts checks it),
 * and the worked examples are reproduced to the token by test/hosts/*.test.ts.
 */

export interface HostSource {
  /** What the document is, as a reader would look it up. */
  title: string;
  url: string;
  /** What we take from it. */
  what: string;
}

// ---------------------------------------------------------------------------------------
// OpenAI: "How to count tokens with tiktoken" (openai-cookbook, examples/How_to_count_tokens_with_tiktoken.ipynb)

export const OPENAI_COOKBOOK: HostSource = {
  title: 'OpenAI Cookbook, "How to count tokens with tiktoken", section 7 (num_tokens_for_tools)',
  url: 'https://github.com/openai/openai-cookbook/blob/main/examples/How_to_count_tokens_with_tiktoken.ipynb',
  what: 'the per-function and per-property constants of chat-completions tool definitions, the per-message constants, and worked examples checked against the API',
};

/** num_tokens_for_tools' constants, by the model names the notebook lists. */
export interface OpenAiToolConstants {
  funcInit: number;
  propInit: number;
  propKey: number;
  enumInit: number;
  enumItem: number;
  funcEnd: number;
}

export const OPENAI_TOOL_CONSTANTS = {
  /** "gpt-4o", "gpt-4o-mini" (encoding o200k_base). */
  'gpt-4o': { funcInit: 7, propInit: 3, propKey: 3, enumInit: -3, enumItem: 3, funcEnd: 12 },
  /** "gpt-3.5-turbo", "gpt-4" (encoding cl100k_base). */
  'gpt-4': { funcInit: 10, propInit: 3, propKey: 3, enumInit: -3, enumItem: 3, funcEnd: 12 },
} as const satisfies Record<string, OpenAiToolConstants>;

/** num_tokens_from_messages' constants (the models the notebook lists use the same). */
export const OPENAI_MESSAGE_CONSTANTS = { tokensPerMessage: 3, tokensPerName: 1, replyPriming: 3 } as const;

/** The notebook's weather tool (section 7), as its `tools` argument gives it. */
export const COOKBOOK_WEATHER_TOOL = {
  name: 'get_current_weather',
  description: 'Get the current weather in a given location',
  parameters: {
    type: 'object',
    properties: {
      location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
      unit: { type: 'string', description: 'The unit of temperature to return', enum: ['celsius', 'fahrenheit'] },
    },
    required: ['location'],
  },
} as const;

export const COOKBOOK_WEATHER_MESSAGES = [
  { role: 'system', content: 'You are a helpful assistant that can answer to questions about the weather.' },
  { role: 'user', content: "What's the weather like in San Francisco?" },
] as const;

/** Section 6's conversation (the corporate-jargon translator). */
export const COOKBOOK_JARGON_MESSAGES = [
  { role: 'system', content: 'You are a helpful, pattern-following assistant that translates corporate jargon into plain English.' },
  { role: 'system', name: 'example_user', content: 'New synergies will help drive top-line growth.' },
  { role: 'system', name: 'example_assistant', content: 'Things working well together will increase revenue.' },
  {
    role: 'system',
    name: 'example_user',
    content: "Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage.",
  },
  { role: 'system', name: 'example_assistant', content: "Let's talk later when we're less busy about how to do better." },
  { role: 'user', content: "This late pivot means we don't have time to boil the ocean for the client deliverable." },
] as const;

/**
 * The prompt tokens the notebook prints for its examples, "counted by num_tokens_...()" and
 * "counted by the OpenAI API" (equal in every row it shows).
 */
export const COOKBOOK_WORKED_EXAMPLES = {
  /** Section 7: the weather tool with its two messages. */
  weatherWithTool: { 'gpt-3.5-turbo': 105, 'gpt-4': 105, 'gpt-4o': 101, 'gpt-4o-mini': 101 },
  /** Section 6: the jargon conversation, no tools. */
  jargonMessages: { 'gpt-3.5-turbo': 129, 'gpt-4-0613': 129, 'gpt-4': 129, 'gpt-4o': 124, 'gpt-4o-mini': 124 },
  /** Sections 3 and 5: plain strings, by encoding. */
  strings: [
    { text: 'tiktoken is great!', o200k_base: 6 },
    { text: 'antidisestablishmentarianism', cl100k_base: 6, o200k_base: 6 },
    { text: '2 + 2 = 4', cl100k_base: 7, o200k_base: 7 },
    { text: 'お誕生日おめでとう', cl100k_base: 9, o200k_base: 8 },
  ],
} as const;

// ---------------------------------------------------------------------------------------
// OpenAI harmony: the published rendering of function tools for gpt-oss

export const HARMONY_FORMAT: HostSource = {
  title: 'OpenAI Cookbook, "OpenAI harmony response format" (Function calling), and the harmony renderer (openai/harmony, src/encoding.rs)',
  url: 'https://cookbook.openai.com/articles/openai-harmony',
  what: 'the exact text function tools are rendered into (a TypeScript-like `namespace functions` in the developer message, and the system-message line on the commentary channel); "designed to mimic the OpenAI Responses API"',
};

export const HARMONY_RENDERER: HostSource = {
  title: 'openai/harmony, src/encoding.rs: json_schema_to_typescript and template_tools_section',
  url: 'https://github.com/openai/harmony/blob/main/src/encoding.rs',
  what: 'how each JSON Schema keyword becomes TypeScript-like text (ported to src/hosts/harmony.ts)',
};

/** The article's three functions (the harmony test `test_render_functions_with_parameters` uses the same). */
export const HARMONY_EXAMPLE_TOOLS = [
  { name: 'get_location', description: 'Gets the location of the user.' },
  {
    name: 'get_current_weather',
    description: 'Gets the current weather in the provided location.',
    parameters: {
      type: 'object',
      properties: {
        location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
        format: { type: 'string', enum: ['celsius', 'fahrenheit'], default: 'celsius' },
      },
      required: ['location'],
    },
  },
  {
    name: 'get_multiple_weathers',
    description: 'Gets the current weather in the provided list of locations.',
    parameters: {
      type: 'object',
      properties: {
        locations: {
          type: 'array',
          items: { type: 'string' },
          description: 'List of city and state, e.g. ["San Francisco, CA", "New York, NY"]',
        },
        format: { type: 'string', enum: ['celsius', 'fahrenheit'], default: 'celsius' },
      },
      required: ['locations'],
    },
  },
] as const;

/** The article's rendering of those functions: the developer message's `# Tools` section, as published. */
export const HARMONY_EXAMPLE_TEXT = [
  '# Tools',
  '',
  '## functions',
  '',
  'namespace functions {',
  '',
  '// Gets the location of the user.',
  'type get_location = () => any;',
  '',
  '// Gets the current weather in the provided location.',
  'type get_current_weather = (_: {',
  '// The city and state, e.g. San Francisco, CA',
  'location: string,',
  'format?: "celsius" | "fahrenheit", // default: celsius',
  '}) => any;',
  '',
  '// Gets the current weather in the provided list of locations.',
  'type get_multiple_weathers = (_: {',
  '// List of city and state, e.g. ["San Francisco, CA", "New York, NY"]',
  'locations: string[],',
  'format?: "celsius" | "fahrenheit", // default: celsius',
  '}) => any;',
  '',
  '} // namespace functions',
].join('\n');

/** The system-message line the article adds when functions are defined. */
export const HARMONY_FUNCTIONS_NOTE = "Calls to these tools must go to the commentary channel: 'functions'.";

// ---------------------------------------------------------------------------------------
// Anthropic: the tool-use system prompt, per model and tool choice

export const ANTHROPIC_TOOL_USE: HostSource = {
  title: 'Claude Docs, "Tool use with Claude" (Overview), pricing: "Tool use system prompt token count"',
  url: 'https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview',
  what: 'the tokens of the system prompt the API adds when `tools` is given, per model and tool choice; the `tools` parameter (names, descriptions, schemas) is billed besides',
};

export type AnthropicToolChoice = 'auto' | 'none' | 'any' | 'tool';

export interface AnthropicToolUseRow {
  /** The model as the table names it. */
  model: string;
  /** API model ids the row applies to (a dated snapshot `<id>-YYYYMMDD` matches too). */
  ids: readonly string[];
  /** Tool choice `auto` or `none`. */
  autoNone: number;
  /** Tool choice `any` or `tool`. */
  anyTool: number;
}

/**
 * The table as the page has it now ("the table assumes at least 1 tool is provided. If no tools
 * are provided, then a tool choice of none uses 0 additional system prompt tokens").
 */
export const ANTHROPIC_TOOL_USE_TOKENS: readonly AnthropicToolUseRow[] = [
  { model: 'Claude Opus 4.8', ids: ['claude-opus-4-8'], autoNone: 290, anyTool: 410 },
  { model: 'Claude Opus 4.7', ids: ['claude-opus-4-7'], autoNone: 675, anyTool: 804 },
  { model: 'Claude Opus 4.6', ids: ['claude-opus-4-6'], autoNone: 497, anyTool: 589 },
  { model: 'Claude Opus 4.5', ids: ['claude-opus-4-5'], autoNone: 496, anyTool: 588 },
  { model: 'Claude Opus 4.1', ids: ['claude-opus-4-1'], autoNone: 313, anyTool: 315 },
  { model: 'Claude Opus 4', ids: ['claude-opus-4', 'claude-opus-4-0'], autoNone: 313, anyTool: 315 },
  { model: 'Claude Sonnet 5', ids: ['claude-sonnet-5'], autoNone: 354, anyTool: 474 },
  { model: 'Claude Sonnet 4.6', ids: ['claude-sonnet-4-6'], autoNone: 497, anyTool: 589 },
  { model: 'Claude Sonnet 4.5', ids: ['claude-sonnet-4-5'], autoNone: 496, anyTool: 588 },
  { model: 'Claude Sonnet 4', ids: ['claude-sonnet-4', 'claude-sonnet-4-0'], autoNone: 313, anyTool: 315 },
  { model: 'Claude Haiku 4.5', ids: ['claude-haiku-4-5'], autoNone: 496, anyTool: 588 },
  { model: 'Claude Haiku 3.5', ids: ['claude-3-5-haiku', 'claude-haiku-3-5'], autoNone: 264, anyTool: 355 },
];

/**
 * An earlier version of the same table (the tool-use overview as it stood when Claude Opus 4.5
 * was the newest model), kept because the figures of one model changed between versions of the
 * page: they are a snapshot, not a constant (Sonnet 4.5: 346/313 there, 496/588 now).
 */
export const ANTHROPIC_TOOL_USE_TOKENS_EARLIER: readonly Pick<AnthropicToolUseRow, 'model' | 'autoNone' | 'anyTool'>[] = [
  { model: 'Claude Opus 4.5', autoNone: 346, anyTool: 313 },
  { model: 'Claude Opus 4.1', autoNone: 346, anyTool: 313 },
  { model: 'Claude Opus 4', autoNone: 346, anyTool: 313 },
  { model: 'Claude Sonnet 4.5', autoNone: 346, anyTool: 313 },
  { model: 'Claude Sonnet 4', autoNone: 346, anyTool: 313 },
  { model: 'Claude Sonnet 3.7', autoNone: 346, anyTool: 313 },
  { model: 'Claude Haiku 4.5', autoNone: 346, anyTool: 313 },
  { model: 'Claude Haiku 3.5', autoNone: 264, anyTool: 340 },
  { model: 'Claude Opus 3', autoNone: 530, anyTool: 281 },
  { model: 'Claude Sonnet 3', autoNone: 159, anyTool: 235 },
  { model: 'Claude Haiku 3', autoNone: 264, anyTool: 340 },
];

export const ANTHROPIC_TOOL_DEFINITION: HostSource = {
  title: 'Claude Docs, "Define tools": the `tools` parameter',
  url: 'https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools',
  what: 'a client tool is `name`, `description` and `input_schema` (JSON Schema), with optional `input_examples` (tool use examples, an array of example inputs); how the API renders it for the model, and Claude’s tokenizer, are not published',
};

// ---------------------------------------------------------------------------------------
// MCP: what a tools/list entry carries (the mcp-json form)

export const MCP_TOOLS_LIST: HostSource = {
  title: 'Model Context Protocol specification, Tools: tools/list',
  url: 'https://modelcontextprotocol.io/specification/2025-06-18/server/tools',
  what: 'the fields of a tool definition (name, title, description, inputSchema, outputSchema, annotations, _meta); counted as the compact JSON of each entry, as the Tool Attention paper counts them',
};
