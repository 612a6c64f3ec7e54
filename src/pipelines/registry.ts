import { fullSchemaEntry } from './b1-full-schema/pipeline.ts';
import { staticPruningEntry } from './b2-static-pruning/pipeline.ts';
import { simpleRetrievalEntry } from './b3-simple-retrieval/pipeline.ts';
import { CLI_LAZY_ENTRIES } from './b4-cli-lazy/pipeline.ts';
import { TOOL_ATTENTION_ENTRIES } from './tool-attention/entries.ts';
import { CODE_EXECUTION_PIPELINES } from './code-mode/entries.ts';
import { HOST_SEARCH_ENTRIES } from './host-search/entries.ts';
import { TOOL_ATTENTION_ABLATIONS } from './tool-attention/ablations.ts';
import { ADOL_ENTRIES } from './adol/entries.ts';
import { checkedPipelineRegistry } from './check-registry.ts';
import type { PipelineEntry } from './types.ts';

export type { PipelineEntry } from './types.ts';

/**
 * Every pipeline the bench runs, in table order, checked when this module loads
 * (./check-registry.ts) and read-only. Each entry is defined in its pipeline's own module with
 * definePipeline and exported there (a worker lane imports it from that module); adding a
 * baseline is one new file and one line here (docs/pipelines.md, "Add a baseline").
 */
export const PIPELINES: readonly PipelineEntry[] = checkedPipelineRegistry([
  fullSchemaEntry,
  staticPruningEntry,
  simpleRetrievalEntry,
  ...CLI_LAZY_ENTRIES,
  ...TOOL_ATTENTION_ENTRIES,
  ...CODE_EXECUTION_PIPELINES,
  ...HOST_SEARCH_ENTRIES,
  ...TOOL_ATTENTION_ABLATIONS,
  ...ADOL_ENTRIES,
]);
