import type { PipelineEntry } from '../types.ts';
import { createToolAttentionPipeline, type ToolAttentionOptions } from './pipeline.ts';

/**
 * Table 5 of the paper: Tool Attention with one part changed at a time. Each variant is
 * compared with the full mechanism (calibrated θ, k = 10) on the same seed. The MiniLM swap
 * runs only where its model files are available (TOOLTAX_MINILM_DIR); use-lite → TF-IDF is
 * the lexical swap.
 */
const variant = (id: string, label: string, options: ToolAttentionOptions): PipelineEntry => ({
  id,
  group: 'ablation',
  create: () => createToolAttentionPipeline({ id, label, ...options }),
});

export const TOOL_ATTENTION_ABLATIONS: PipelineEntry[] = [
  variant('ta-no-hallucination-gate', 'TA without hallucination gate', { hallucinationGate: false }),
  variant('ta-no-preconditions', 'TA without preconditions (ISO only)', { preconditionGate: false }),
  variant('ta-summaries-only', 'TA summaries only (phase 2 skipped)', { skipPhase2: true }),
  variant('ta-phase1-only-k0', 'TA phase 1 only, k = 0', { phase1Only: true }),
  variant('ta-encoder-tfidf', 'TA encoder → TF-IDF', { encoder: 'tfidf' }),
  ...(process.env.TOOLTAX_MINILM_DIR ? [variant('ta-encoder-minilm', 'TA encoder → MiniLM', { encoder: 'minilm' })] : []),
  variant('ta-k5', 'TA k = 5', { k: 5 }),
  variant('ta-k20', 'TA k = 20', { k: 20 }),
  variant('ta-theta-0.15', 'TA θ = 0.15', { theta: 0.15 }),
  variant('ta-theta-0.40', 'TA θ = 0.40', { theta: 0.4 }),
];
