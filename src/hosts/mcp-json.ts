import { serializeToolDefinition, type McpTool } from '../catalog/types.ts';
import type { TokenizerName } from '../tokens/counter.ts';
import { MCP_TOOLS_LIST } from './sources.ts';
import type { HostProfile } from './types.ts';

/**
 * mcp-json: the tool list as MCP's tools/list carries it, one compact JSON object per tool,
 * every field kept. It is how the source papers count a definition and the default of every
 * paper table; no host sends its model exactly this, which is why the other profiles exist.
 */
export function mcpJsonProfile(tokenizer: TokenizerName): HostProfile {
  return {
    id: 'mcp-json',
    label: 'mcp-json (compact tools/list JSON)',
    tokenizer,
    tokenizerNote: `${tokenizer}, the run's --tokenizer`,
    keepsPromptText: true,
    sends: 'all',
    toolTokens: (definition, tokens) => tokens.count(serializeToolDefinition(definition)),
    requestTokens: () => 0,
    requestTokensNote: 'none (in a prompt, the heading and line breaks of the pipeline’s own text)',
    render: (definitions: readonly McpTool[]) => definitions.map((d) => serializeToolDefinition(d)).join('\n'),
    messageFraming: () => 0,
    sources: [MCP_TOOLS_LIST],
    knownError:
      'Not what any host sends a model: providers take name, description and input schema only, and render them their own way (the other profiles).',
  };
}
