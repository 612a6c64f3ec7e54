import { createCodeModeFilesPipeline } from '../code-mode-files/pipeline.ts';
import { createProgrammaticCallsPipeline } from '../programmatic-calls/pipeline.ts';
import { createSearchExecutePipeline } from '../search-execute/pipeline.ts';
import { createToolAttentionCodePipeline } from '../tool-attention-code/pipeline.ts';
import { createToolExamplesPipeline } from '../tool-examples/pipeline.ts';
import { definePipelines, type PipelineEntry } from '../types.ts';
import { createCodeModePipeline } from './pipeline.ts';

/** Where each method is published (docs/reference/code-execution-sources.md). */
const CLOUDFLARE = 'Cloudflare Code Mode (its announcement and @cloudflare/codemode)';
const ANTHROPIC_CODE = 'Anthropic Engineering, "Code execution with MCP" (2025-11-04)';
const ANTHROPIC_ADVANCED = 'Anthropic Engineering, "Introducing advanced tool use on the Claude Developer Platform" (2025-11-24)';

/**
 * The code-execution methods and tool use examples (docs/pipelines.md, "Code execution"), one
 * entry each, in table order; src/pipelines/registry.ts spreads them after the methods.
 */
export const CODE_EXECUTION_PIPELINES: readonly PipelineEntry[] = definePipelines(import.meta.url, [
  {
    id: 'code-mode',
    code: 'CM',
    group: 'main',
    description: 'one codemode tool: the catalog as the TypeScript API @cloudflare/codemode renders; code returns only its answer',
    published: true,
    reference: CLOUDFLARE,
    create: createCodeModePipeline,
  },
  {
    id: 'code-mode-files',
    code: 'CMF',
    group: 'main',
    description:
      'a code-execution tool; the model lists servers/<server>/<tool>.ts wrapper files and reads those it picks; code prints only its answer',
    published: true,
    reference: ANTHROPIC_CODE,
    create: () => createCodeModeFilesPipeline(),
  },
  {
    id: 'code-mode-files-search',
    code: 'CMF-s',
    group: 'main',
    description: 'as code-mode-files, found with a search_tools call (BM25 top 10, names and descriptions) instead of a listing',
    published: true,
    reference: `${ANTHROPIC_CODE}, search_tools`,
    create: () => createCodeModeFilesPipeline({ discovery: 'search' }),
  },
  {
    id: 'search-execute',
    code: 'SE',
    group: 'main',
    description: 'two tools: search returns the Code Mode types of the BM25 top 5, execute runs the code',
    published: true,
    reference: `${CLOUDFLARE}, server-side search() and execute()`,
    create: () => createSearchExecutePipeline(),
  },
  {
    id: 'programmatic-calls',
    code: 'PTC',
    group: 'main',
    description: 'every full definition and a code-execution tool; chains of calls run as one script that prints its last step',
    published: true,
    reference: `${ANTHROPIC_ADVANCED}, programmatic tool calling`,
    create: createProgrammaticCallsPipeline,
  },
  {
    id: 'tool-examples',
    code: 'TX',
    group: 'main',
    description: 'B1 with input_examples (1–5 per tool, generated from the schema)',
    published: true,
    reference: `${ANTHROPIC_ADVANCED}, tool use examples`,
    create: createToolExamplesPipeline,
  },
  {
    id: 'tool-attention+code',
    code: 'TA+C',
    group: 'main',
    description: "Tool Attention's gated definitions with results filtered by code",
    published: true,
    reference: 'Tool Attention paper (arXiv 2604.21816), related work: the combination it proposes',
    create: createToolAttentionCodePipeline,
  },
]);

/** Whether a pipeline is one of the code-execution methods or tool use examples (ranked in the code mode table, not in the papers' sensitivity table). */
export function isCodeExecution(id: string): boolean {
  return CODE_EXECUTION_PIPELINES.some((e) => e.id === id);
}
