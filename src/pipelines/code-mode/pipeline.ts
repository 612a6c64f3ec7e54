import { toolResults, type ToolResult } from '../../catalog/tool-results.ts';
import type { Catalog } from '../../catalog/types.ts';
import type { Pipeline, PipelineContext, PromptSection, TurnInput, TurnResult } from '../types.ts';
import { codeTranscript, type CodeStyle } from './code.ts';
import { codeModeTool, codeName } from './render.ts';
import { toolsSection } from './tools.ts';

/** Code Mode's calls: `codemode.<server>_<tool>(input)` inside an async arrow function. */
export const CODE_MODE_STYLE: CodeStyle = { tool: 'codemode', form: 'arrow', callee: (t) => `codemode.${codeName(t)}` };

/**
 * Code Mode (Cloudflare): no tool is sent as a tool. One `codemode` tool carries the whole
 * catalog as a TypeScript API, rendered by `@cloudflare/codemode` itself (./render.ts); the
 * model writes one async function per turn that calls the tools, it runs in a sandbox, and only
 * what it returns enters the context (./code.ts). Every tool's input type is in the prompt, so
 * every tool counts as fully described.
 */
export function createCodeModePipeline(): Pipeline {
  let catalog: Catalog | undefined;
  let results: ReadonlyMap<string, ToolResult> | undefined;
  let ids: string[] = [];
  let definitions: PromptSection | undefined;
  return {
    id: 'code-mode',
    label: 'Code Mode',
    async prepare(ctx: PipelineContext) {
      catalog = ctx.catalog;
      results = toolResults(ctx.catalog);
      ids = ctx.catalog.tools.map((t) => t.id);
      definitions = toolsSection('codemode-api', [codeModeTool(ctx.catalog.tools)]);
    },
    async turn({ turn, turnIndex, shared }: TurnInput): Promise<TurnResult> {
      if (!catalog || !definitions) throw new Error('code-mode: prepare() first');
      return {
        prompt: { sections: [shared.system, definitions, ...shared.history, shared.user] },
        exposure: { listedTools: ids, fullSchemaTools: ids, discoveryCalls: [] },
        transcript: codeTranscript(catalog, results!, turnIndex, turn, CODE_MODE_STYLE),
      };
    },
    describe: () => ({
      details: {
        rendering: '@cloudflare/codemode createBrowserCodeTool: the library’s own types and instructions, one `codemode` tool',
        code: 'modelled: one async arrow function per turn; a lookup returns its answer, a chain its last step',
      },
    }),
  };
}
