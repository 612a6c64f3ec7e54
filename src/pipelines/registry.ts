import { createFullSchemaPipeline } from './b1-full-schema/pipeline.ts';
import { createStaticPruningPipeline } from './b2-static-pruning/pipeline.ts';
import { createCliLazyPipeline } from './b4-cli-lazy/pipeline.ts';
import { createSimpleRetrievalPipeline } from './b3-simple-retrieval/pipeline.ts';
import { createToolAttentionPipeline } from './tool-attention/pipeline.ts';
import { ADOL_PRESETS, createAdolPreset, type AdolPresetId } from './adol/pipeline.ts';
import { PUBLISHED_ADOL_SOURCE } from './adol/published.ts';
import { TOOL_ATTENTION_ABLATIONS } from './tool-attention/ablations.ts';
import { checkedPipelineRegistry } from './check-registry.ts';
import { CODE_EXECUTION_PIPELINES } from './code-mode/entries.ts';
import { hostSearch } from './host-search/entries.ts';
import type { PipelineEntry } from './types.ts';

export type { PipelineEntry } from './types.ts';

/** The paper whose baselines B1–B4 and whose method Tool Attention the bench reproduces. */
const TOOL_ATTENTION_PAPER = 'Tool Attention paper (arXiv 2604.21816)';

/** A module of this folder, as a file: URL (PipelineEntry.module: the code its pipeline runs). */
const moduleAt = (path: string) => new URL(path, import.meta.url).href;

/** Entries defined in one module of this folder, which imports the code of each. */
const inModule = (path: string, entries: readonly PipelineEntry[]): PipelineEntry[] =>
  entries.map((e) => ({ ...e, module: moduleAt(path) }));

const adol = (id: AdolPresetId, description: string): PipelineEntry => ({
  id,
  group: 'adol',
  description: `ADOL, ${ADOL_PRESETS[id].mechanism}: ${description}`,
  published: true,
  reference: PUBLISHED_ADOL_SOURCE,
  create: () => createAdolPreset(id),
  module: moduleAt('./adol/pipeline.ts'),
});

/**
 * Every pipeline the bench runs, in table order, checked when this module loads
 * (./check-registry.ts) and read-only. Adding a baseline is one new file that returns a
 * Pipeline and one entry here (docs/pipelines.md, "Add a baseline").
 */
export const PIPELINES: readonly PipelineEntry[] = checkedPipelineRegistry([
  {
    id: 'b1-full-schema',
    module: moduleAt('./b1-full-schema/pipeline.ts'),
    code: 'B1',
    group: 'main',
    baseline: true,
    description: 'every full tool definition on every turn (naive MCP)',
    published: true,
    reference: `${TOOL_ATTENTION_PAPER}, baseline B1`,
    create: createFullSchemaPipeline,
  },
  {
    id: 'b2-static-pruning',
    module: moduleAt('./b2-static-pruning/pipeline.ts'),
    code: 'B2',
    group: 'main',
    description: 'a fixed subset of 30 full definitions chosen once from past usage, on every turn',
    published: true,
    reference: `${TOOL_ATTENTION_PAPER}, baseline B2`,
    create: createStaticPruningPipeline,
  },
  {
    id: 'b3-simple-retrieval',
    module: moduleAt('./b3-simple-retrieval/pipeline.ts'),
    code: 'B3',
    group: 'main',
    description: "the top 10 full definitions the bench's retriever ranks for the user's message",
    published: true,
    reference: `${TOOL_ATTENTION_PAPER}, baseline B3`,
    create: () => createSimpleRetrievalPipeline(),
  },
  {
    id: 'b4-cli-lazy',
    module: moduleAt('./b4-cli-lazy/pipeline.ts'),
    code: 'B4',
    group: 'main',
    description: 'a short CLI description; the model runs --list and --help on the tools it picks (a seeded policy)',
    published: true,
    reference: `${TOOL_ATTENTION_PAPER}, baseline B4 (the mcp2cli pattern)`,
    create: () => createCliLazyPipeline(),
  },
  {
    id: 'b4-cli-lazy-oracle',
    module: moduleAt('./b4-cli-lazy/pipeline.ts'),
    code: 'B4o',
    group: 'main',
    ablationOf: 'b4-cli-lazy',
    description: 'B4 with oracle discovery: --help on exactly the tools each turn needs',
    create: () => createCliLazyPipeline({ discovery: 'oracle' }),
  },
  {
    id: 'tool-attention',
    module: moduleAt('./tool-attention/pipeline.ts'),
    code: 'TA',
    group: 'main',
    description: "a summary of every tool, and the full definitions of the top 10 the bench's retriever scores above θ (coverage rule)",
    published: true,
    reference: `${TOOL_ATTENTION_PAPER}, §4, routed by the bench's retriever`,
    create: () => createToolAttentionPipeline(),
  },
  {
    id: 'tool-attention-paper',
    module: moduleAt('./tool-attention/pipeline.ts'),
    code: 'TA-paper',
    group: 'main',
    description: 'Tool Attention as published: use-lite cosine as ISO, θ by maximum F1',
    published: true,
    reference: `${TOOL_ATTENTION_PAPER}, §4`,
    create: () => createToolAttentionPipeline({ id: 'tool-attention-paper', label: 'Tool Attention (paper form)', paperForm: true }),
  },
  ...inModule('./code-mode/entries.ts', CODE_EXECUTION_PIPELINES),
  ...inModule(
    './host-search/entries.ts',
    (['anthropic-bm25', 'anthropic-regex', 'openai', 'openai-client', 'client'] as const).map((id) => hostSearch(id)),
  ),
  ...inModule('./tool-attention/ablations.ts', TOOL_ATTENTION_ABLATIONS),
  adol('adol-ref-internal', 'repeated schema parts hoisted into internal $defs'),
  adol('adol-ref-external', 'repeated schema parts moved to external templates'),
  adol('adol-short', 'the short tools/list, optional fields omitted'),
  adol('adol-require-output', 'tool responses trimmed to what the call asks for'),
  adol('adol-retrieval-semantic', 'the semantic top-k tools only'),
  adol('adol-retrieval-tags', 'the tools whose tags match the request'),
  adol('adol-combined', 'every mechanism at once'),
]);
