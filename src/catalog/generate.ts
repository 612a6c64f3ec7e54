import { toStableJson } from '../util/files.ts';
import type { TokenizerName } from '../tokens/counter.ts';
import { calibrateServer, commonCalibrationFactor } from './calibrate.ts';
import { META_FILE, type CatalogMetaFile } from './meta.ts';
import type { ServerSpec } from './spec.ts';
import { toolId, type Catalog, type CatalogTool } from './types.ts';

export const SYNTHETIC_CATALOG_NAME = 'synthetic-120';

export interface GeneratedCatalog {
  catalog: Catalog;
  /** File name → exact content, for writing into a catalog folder. */
  files: Map<string, string>;
  /** Per server: what calibration aimed at. */
  targets: { server: string; displayName: string; publishedMean: number; calibratedTarget: number; tools: number }[];
  factor: number;
}

/**
 * Build the synthetic catalog from the authored server specs: one tools/list dump per server
 * (`<server>.json`, the same format as a real dump) plus the metadata sidecar.
 */
export function generateCatalog(specs: readonly ServerSpec[], seed: number, tokenizer: TokenizerName = 'cl100k_base'): GeneratedCatalog {
  const factor = commonCalibrationFactor(specs);
  const files = new Map<string, string>();
  const tools: CatalogTool[] = [];
  const meta: CatalogMetaFile = { generator: `tooltax ${SYNTHETIC_CATALOG_NAME}`, seed, tools: {} };
  const source = `tooltax synthetic generator, seed ${seed}`;
  for (const spec of specs) {
    const calibrated = calibrateServer(spec, spec.targetTokensPerTool * factor, seed, tokenizer);
    files.set(`${spec.server}.json`, toStableJson({ server: spec.server, source, tools: calibrated.definitions }));
    spec.tools.forEach((t, i) => {
      const id = toolId(spec.server, t.name);
      meta.tools[id] = { summary: t.summary, tags: t.tags, preconditions: t.preconditions, sampleResponse: t.sampleResponse };
      tools.push({
        id,
        server: spec.server,
        name: t.name,
        definition: calibrated.definitions[i]!,
        summary: t.summary,
        summarySource: 'authored',
        tags: t.tags,
        preconditions: t.preconditions,
        sampleResponse: t.sampleResponse,
      });
    });
  }
  files.set(META_FILE, toStableJson(meta));
  return {
    catalog: { name: SYNTHETIC_CATALOG_NAME, source, servers: specs.map((s) => s.server), tools },
    files,
    targets: specs.map((s) => ({
      server: s.server,
      displayName: s.displayName,
      publishedMean: s.targetTokensPerTool,
      calibratedTarget: s.targetTokensPerTool * factor,
      tools: s.targetToolCount,
    })),
    factor,
  };
}
