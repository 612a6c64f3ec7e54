import type { Study } from './studies.ts';

/** Studies run after the pipelines, in this order; each adds its tables to the results. */
export const STUDIES: Study[] = [];
