import { createFullSchemaPipeline } from './b1-full-schema/pipeline.ts';
import { createStaticPruningPipeline } from './b2-static-pruning/pipeline.ts';
import { createCliLazyPipeline } from './b4-cli-lazy/pipeline.ts';
import { createSimpleRetrievalPipeline } from './b3-simple-retrieval/pipeline.ts';
import { createToolAttentionPipeline } from './tool-attention/pipeline.ts';
import { createAdolPreset } from './adol/pipeline.ts';
import { TOOL_ATTENTION_ABLATIONS } from './tool-attention/ablations.ts';
import type { PipelineEntry } from './types.ts';

export type { PipelineEntry } from './types.ts';

/**
 * Every pipeline the bench runs, in table order. Adding a baseline is one new file that
 * returns a Pipeline and one line here (README "Add a baseline").
 */
export const PIPELINES: PipelineEntry[] = [
  { id: 'b1-full-schema', code: 'B1', group: 'main', baseline: true, create: createFullSchemaPipeline },
  { id: 'b2-static-pruning', code: 'B2', group: 'main', create: createStaticPruningPipeline },
  { id: 'b3-simple-retrieval', code: 'B3', group: 'main', create: () => createSimpleRetrievalPipeline() },
  { id: 'b4-cli-lazy', code: 'B4', group: 'main', create: () => createCliLazyPipeline() },
  {
    id: 'b4-cli-lazy-oracle',
    code: 'B4o',
    group: 'main',
    ablationOf: 'b4-cli-lazy',
    create: () => createCliLazyPipeline({ discovery: 'oracle' }),
  },
  { id: 'tool-attention', code: 'TA', group: 'main', create: () => createToolAttentionPipeline() },
  {
    id: 'tool-attention-paper',
    code: 'TA-paper',
    group: 'main',
    create: () => createToolAttentionPipeline({ id: 'tool-attention-paper', label: 'Tool Attention (paper form)', paperForm: true }),
  },
  ...TOOL_ATTENTION_ABLATIONS,
  { id: 'adol-ref-internal', group: 'adol', create: () => createAdolPreset('adol-ref-internal') },
  { id: 'adol-ref-external', group: 'adol', create: () => createAdolPreset('adol-ref-external') },
  { id: 'adol-short', group: 'adol', create: () => createAdolPreset('adol-short') },
  { id: 'adol-require-output', group: 'adol', create: () => createAdolPreset('adol-require-output') },
  { id: 'adol-retrieval-semantic', group: 'adol', create: () => createAdolPreset('adol-retrieval-semantic') },
  { id: 'adol-retrieval-tags', group: 'adol', create: () => createAdolPreset('adol-retrieval-tags') },
  { id: 'adol-combined', group: 'adol', create: () => createAdolPreset('adol-combined') },
];
