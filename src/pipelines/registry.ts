import { createFullSchemaPipeline } from './b1-full-schema.ts';
import type { Pipeline } from './types.ts';

export interface PipelineEntry {
  id: string;
  /**
   * Which table the pipeline belongs to: `main` (Table 3 and everything downstream),
   * `ablation` (Table 5 variants) or `adol` (the ADOL mechanism table).
   */
  group: 'main' | 'ablation' | 'adol';
  create: () => Pipeline;
}

/**
 * Every pipeline the bench runs, in table order. Adding a baseline is one new file that
 * returns a Pipeline and one line here (README "Add a baseline").
 */
export const PIPELINES: PipelineEntry[] = [
  { id: 'b1-full-schema', group: 'main', create: createFullSchemaPipeline },
];
