import { toolResults, type ToolResult } from '../../catalog/tool-results.ts';
import type { Catalog } from '../../catalog/types.ts';
import { toolDefinitionsSection } from '../../prompt/render-tools.ts';
import { codeTranscript, type CodeStyle } from '../code-mode/code.ts';
import { codeName } from '../code-mode/render.ts';
import { CODE_EXECUTION_TOOL, toolsSection } from '../code-mode/tools.ts';
import type { Pipeline, PipelineContext, PromptSection, TurnInput, TurnResult } from '../types.ts';

const PROGRAMMATIC_STYLE: CodeStyle = { tool: 'code_execution', form: 'script', callee: (t) => codeName(t) };

/**
 * Programmatic tool calling (Anthropic, tools marked `allowed_callers` for the code-execution
 * tool): every tool's full definition is sent as a tool, as in B1, beside the code-execution
 * tool. A turn with one call calls the tool directly and keeps its result; a chain of calls
 * runs as one script that calls the tools, so the intermediate results never enter the context
 * and only what the script prints does (../code-mode/code.ts).
 */
export function createProgrammaticCallsPipeline(): Pipeline {
  let catalog: Catalog | undefined;
  let results: ReadonlyMap<string, ToolResult> | undefined;
  let ids: string[] = [];
  let definitions: PromptSection | undefined;
  const codeTool = toolsSection('code-execution-tool', [CODE_EXECUTION_TOOL]);
  return {
    id: 'programmatic-calls',
    label: 'Programmatic tool calls',
    async prepare(ctx: PipelineContext) {
      catalog = ctx.catalog;
      results = toolResults(ctx.catalog);
      ids = ctx.catalog.tools.map((t) => t.id);
      definitions = toolDefinitionsSection(ctx.catalog.tools);
    },
    async turn({ turn, turnIndex, shared }: TurnInput): Promise<TurnResult> {
      if (!catalog || !definitions) throw new Error('programmatic-calls: prepare() first');
      return {
        prompt: { sections: [shared.system, definitions, codeTool, ...shared.history, shared.user] },
        exposure: { listedTools: ids, fullSchemaTools: ids, discoveryCalls: [] },
        // One call: a direct call (the default transcript); a chain: one script.
        transcript: turn.tools.length > 1 ? codeTranscript(catalog, results!, turnIndex, turn, PROGRAMMATIC_STYLE) : undefined,
      };
    },
    describe: () => ({
      // Live: Anthropic's code execution tool with allowed_callers where the provider is Anthropic; the client's sandbox elsewhere.
      codeExecution: { programmatic: true },
      details: { code: 'modelled: chains of two or more calls run as one script that prints its last step; single calls are direct' },
    }),
  };
}
