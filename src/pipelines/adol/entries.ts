import { definePipeline, type PipelineEntry } from '../types.ts';
import { ADOL_PRESETS, createAdolPreset, type AdolPresetId } from './pipeline.ts';
import { PUBLISHED_ADOL_SOURCE } from './published.ts';

const adol = (id: AdolPresetId, description: string): PipelineEntry =>
  definePipeline(import.meta.url, {
    id,
    group: 'adol',
    description: `ADOL, ${ADOL_PRESETS[id].mechanism}: ${description}`,
    published: true,
    reference: PUBLISHED_ADOL_SOURCE,
    create: () => createAdolPreset(id),
  });

/** The ADOL mechanisms, each alone and all combined, in table order (src/pipelines/registry.ts). */
export const ADOL_ENTRIES: readonly PipelineEntry[] = [
  adol('adol-ref-internal', 'repeated schema parts hoisted into internal $defs'),
  adol('adol-ref-external', 'repeated schema parts moved to external templates'),
  adol('adol-short', 'the short tools/list, optional fields omitted'),
  adol('adol-require-output', 'tool responses trimmed to what the call asks for'),
  adol('adol-retrieval-semantic', 'the semantic top-k tools only'),
  adol('adol-retrieval-tags', 'the tools whose tags match the request'),
  adol('adol-combined', 'every mechanism at once'),
];
