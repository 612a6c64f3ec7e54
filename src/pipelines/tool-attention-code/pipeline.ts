import { toolResults, type ToolResult } from '../../catalog/tool-results.ts';
import type { Catalog } from '../../catalog/types.ts';
import { codeTranscript, type CodeStyle } from '../code-mode/code.ts';
import { codeName } from '../code-mode/render.ts';
import { CODE_EXECUTION_TOOL, toolsSection } from '../code-mode/tools.ts';
import { createToolAttentionPipeline } from '../tool-attention/pipeline.ts';
import type { Pipeline, PipelineContext, TurnInput, TurnResult } from '../types.ts';

const SCRIPT_STYLE: CodeStyle = { tool: 'code_execution', form: 'script', callee: (t) => codeName(t) };

/**
 * Tool Attention with code execution, the combination the Tool Attention paper proposes in its
 * related work (code execution optimises tool outputs, Tool Attention tool definitions): Tool
 * Attention's prompt unchanged (summary pool and gated full definitions), plus the code-execution
 * tool; the turn's calls run as one script, and only what it prints enters the context.
 */
export function createToolAttentionCodePipeline(): Pipeline {
  const inner = createToolAttentionPipeline();
  const codeTool = toolsSection('code-execution-tool', [CODE_EXECUTION_TOOL]);
  let catalog: Catalog | undefined;
  let results: ReadonlyMap<string, ToolResult> | undefined;
  return {
    id: 'tool-attention+code',
    label: 'Tool Attention + code',
    async prepare(ctx: PipelineContext) {
      catalog = ctx.catalog;
      results = toolResults(ctx.catalog);
      await inner.prepare?.(ctx);
    },
    startTask: (task) => inner.startTask?.(task),
    async turn(input: TurnInput): Promise<TurnResult> {
      if (!catalog) throw new Error('tool-attention+code: prepare() first');
      const r = await inner.turn(input);
      const [system, ...rest] = r.prompt.sections;
      return {
        ...r,
        prompt: { sections: [system!, codeTool, ...rest] },
        transcript: codeTranscript(catalog, results!, input.turnIndex, input.turn, SCRIPT_STYLE),
      };
    },
    describe: () => {
      const d = inner.describe?.() ?? { details: {} };
      return {
        ...d,
        details: {
          ...d.details,
          code: 'modelled: the turn’s calls as one script; prints the answer of a lookup, the last step of a chain',
        },
      };
    },
  };
}
