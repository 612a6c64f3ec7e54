import type { McpTool } from '../catalog/types.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import { HARMONY_TOOLS_FOOTER, HARMONY_TOOLS_HEADER, harmonyFunctionText, harmonyToolsSection, type HarmonyFunction } from './harmony.ts';
import { HARMONY_FORMAT, HARMONY_FUNCTIONS_NOTE, HARMONY_RENDERER } from './sources.ts';
import type { HostMessage, HostProfile } from './types.ts';

/**
 * openai-responses: a Responses API request's function tools as the model reads them. OpenAI
 * publishes that rendering for its open-weight models only (harmony, "designed to mimic the
 * OpenAI Responses API"), so this profile is the harmony text, exactly: the `# Tools` section of
 * the developer message (a `namespace functions` of TypeScript-like types, src/hosts/harmony.ts)
 * and the line the system message gains when functions are defined. Tokenizer o200k_base: the
 * harmony encoding o200k_harmony is o200k_base plus special tokens, none of which is in this text.
 */

/** What a tool list adds to the prompt besides its functions: "\n\n" before `# Tools`, the namespace's opening and closing, the system line. */
const REQUEST_TEXTS = [`\n\n${HARMONY_TOOLS_HEADER}`, HARMONY_TOOLS_FOOTER, `\n${HARMONY_FUNCTIONS_NOTE}`];

/**
 * A function's tokens inside the namespace: its text counted after a preceding function. In
 * o200k a `//` that opens a function's comment joins the `;\n\n` before it into one pre-token
 * (o200k's punctuation run takes trailing newlines and slashes), so the functions are not
 * counted alone; after a function, the count is exact for any neighbours, and after the
 * namespace's opening `{\n\n` it is the same (test/hosts/openai-responses.test.ts checks the
 * sum against the whole text on every catalog).
 */
const PRECEDING = 'type _ = () => any;\n\n';

function asFunction(d: McpTool): HarmonyFunction {
  return { name: d.name, description: d.description, parameters: d.inputSchema };
}

export function openAiResponsesProfile(): HostProfile {
  return {
    id: 'openai-responses',
    label: 'openai-responses (harmony rendering)',
    tokenizer: 'o200k_base',
    tokenizerNote: 'o200k_base (harmony’s o200k_harmony adds only special tokens, none in this text)',
    keepsPromptText: false,
    sends: ['name', 'description', 'inputSchema'],
    toolTokens: (d, tokens: TokenCounter) => tokens.count(PRECEDING + harmonyFunctionText(asFunction(d))) - tokens.count(PRECEDING),
    requestTokens: (tokens) => REQUEST_TEXTS.reduce((n, t) => n + tokens.count(t), 0),
    requestTokensNote: 'the `# Tools` heading and `namespace functions` wrapper, and the system line on the commentary channel',
    render: (definitions) => harmonyToolsSection(definitions.map(asFunction)),
    // harmony: <|start|>{role}<|message|>{text}<|end|> per message (three special tokens and the
    // role), and <|start|>assistant to prime the reply. The instructions are the developer message.
    messageFraming: (messages: readonly HostMessage[], tokens) =>
      messages.reduce((n, m) => n + 3 + tokens.count(m.role === 'system' ? 'developer' : m.role), 0) + 1 + tokens.count('assistant'),
    sources: [HARMONY_FORMAT, HARMONY_RENDERER],
    knownError:
      'Exact text for gpt-oss; OpenAI does not publish what its hosted models see from a Responses request, so for them this is the nearest published form. At each seam with the surrounding prompt a count can differ by a token (a pre-token spanning the seam).',
  };
}
