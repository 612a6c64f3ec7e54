import { definePipeline, type PipelineEntry } from '../types.ts';
import { createToolAttentionPipeline, type ToolAttentionOptions } from './pipeline.ts';

/**
 * Table 5 of the paper: Tool Attention with one part changed at a time. Each variant is
 * compared with the full mechanism (the bench's retriever, coverage θ, k = 10) on the same
 * seed; its label names what ranks the tools. The paper-form variants rank by an encoder's
 * cosine (MiniLM only where its model files are available, TOOLTAX_MINILM_DIR); the
 * retriever variants show Tool Attention on each kind of retriever.
 */
const variant = (id: string, label: string, options: ToolAttentionOptions): PipelineEntry =>
  definePipeline(import.meta.url, {
    id,
    group: 'ablation',
    description: `Tool Attention with one part changed: ${label.replace(/^TA /, '')}`,
    create: () => createToolAttentionPipeline({ id, label, ...options }),
  });

export const TOOL_ATTENTION_ABLATIONS: readonly PipelineEntry[] = [
  variant('ta-no-hallucination-gate', 'TA without hallucination gate', { hallucinationGate: false }),
  variant('ta-no-preconditions', 'TA without preconditions (ISO only)', { preconditionGate: false }),
  variant('ta-summaries-only', 'TA summaries only (phase 2 skipped)', { skipPhase2: true }),
  variant('ta-phase1-only-k0', 'TA phase 1 only, k = 0', { phase1Only: true }),
  variant('ta-encoder-tfidf', 'TA paper form, encoder → TF-IDF (F1 θ)', { paperForm: true, encoder: 'tfidf' }),
  ...(process.env.TOOLTAX_MINILM_DIR
    ? [variant('ta-encoder-minilm', 'TA paper form, encoder → MiniLM (F1 θ)', { paperForm: true, encoder: 'minilm' })]
    : []),
  variant('ta-retriever-bm25', 'TA retriever → bm25 (coverage θ)', { retriever: 'bm25' }),
  variant('ta-retriever-hybrid-norm', 'TA retriever → hybrid-norm (coverage θ)', { retriever: 'hybrid-norm' }),
  variant('ta-retriever-dense-use-lite', 'TA retriever → dense:use-lite (coverage θ)', { retriever: 'dense:use-lite' }),
  variant('ta-theta-f1', 'TA θ by max F1 (paper rule)', { theta: 'calibrated' }),
  variant('ta-query-rolling', 'TA query = message + rolling context', { query: 'rolling' }),
  variant('ta-k5', 'TA k = 5', { k: 5 }),
  variant('ta-k20', 'TA k = 20', { k: 20 }),
  variant('ta-theta-0.15', 'TA θ = 0.15', { theta: 0.15 }),
  variant('ta-theta-0.40', 'TA θ = 0.40', { theta: 0.4 }),
];
