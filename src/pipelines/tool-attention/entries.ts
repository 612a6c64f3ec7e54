import { TOOL_ATTENTION_PAPER } from '../tool-attention-paper.ts';
import { definePipelines, type PipelineEntry } from '../types.ts';
import { createToolAttentionPipeline } from './pipeline.ts';

/** Tool Attention as the bench routes it and as published, in table order (src/pipelines/registry.ts); its ablations are ./ablations.ts. */
export const TOOL_ATTENTION_ENTRIES: readonly PipelineEntry[] = definePipelines(import.meta.url, [
  {
    id: 'tool-attention',
    code: 'TA',
    group: 'main',
    description: "a summary of every tool, and the full definitions of the top 10 the bench's retriever scores above θ (coverage rule)",
    published: true,
    reference: `${TOOL_ATTENTION_PAPER}, §4, routed by the bench's retriever`,
    create: () => createToolAttentionPipeline(),
  },
  {
    id: 'tool-attention-paper',
    code: 'TA-paper',
    group: 'main',
    description: 'Tool Attention as published: use-lite cosine as ISO, θ by maximum F1',
    published: true,
    reference: `${TOOL_ATTENTION_PAPER}, §4`,
    create: () => createToolAttentionPipeline({ id: 'tool-attention-paper', label: 'Tool Attention (paper form)', paperForm: true }),
  },
]);
