import type { SearchBand } from '../sim/search-model.ts';
import { createCodeModeFilesPipeline } from './code-mode-files/pipeline.ts';
import { HOST_SEARCH_IDS, hostSearchWithBand } from './host-search/entries.ts';
import { createSearchExecutePipeline } from './search-execute/pipeline.ts';
import type { Pipeline } from './types.ts';

/** The code-execution pipelines whose discovery is the searching model's searches. */
export const CODE_SEARCH_IDS = ['code-mode-files-search', 'search-execute'] as const;

/** Every pipeline that searches with the searching model (src/sim/search-model.ts): the host searches, then the code-execution ones. */
export const SEARCH_BAND_IDS: readonly string[] = [...HOST_SEARCH_IDS, ...CODE_SEARCH_IDS];

/**
 * A searching pipeline by id with another band of the searching model (the tables' lower and
 * upper bounds beside the calibrated point); undefined for a pipeline that does not search.
 */
export function searchPipelineWithBand(id: string, band: SearchBand): Pipeline | undefined {
  if (id === 'code-mode-files-search') return createCodeModeFilesPipeline({ discovery: 'search', band });
  if (id === 'search-execute') return createSearchExecutePipeline(undefined, band);
  return hostSearchWithBand(id, band);
}
