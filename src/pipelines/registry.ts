import { createFullSchemaPipeline } from './b1-full-schema.ts';
import type { Pipeline } from './types.ts';

export interface PipelineEntry {
  id: string;
  create: () => Pipeline;
}

/**
 * Every pipeline the bench runs, in table order. Adding a baseline is one new file that
 * returns a Pipeline and one line here (README "Add a baseline").
 */
export const PIPELINES: PipelineEntry[] = [
  { id: 'b1-full-schema', create: createFullSchemaPipeline },
];
