import { TESTBED_CATALOG } from '../reference/published.ts';
import { toStableJson } from '../util/files.ts';
import type { TokenizerName } from '../tokens/counter.ts';
import { calibrateServer, commonCalibrationFactor } from './calibrate.ts';
import { META_FILE, type CatalogMetaFile, type ToolMeta } from './meta.ts';
import type { ServerSpec, ToolSpec } from './spec.ts';
import { toolId, type Catalog, type CatalogTool, type McpTool } from './types.ts';

/** The generated catalog is the paper's testbed, reproduced: published figures are printed beside it only. */
export const SYNTHETIC_CATALOG_NAME = TESTBED_CATALOG;

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
  const metaTools: [string, ToolMeta][] = [];
  const source = `tooltax synthetic generator, seed ${seed}`;
  for (const spec of specs) {
    const calibrated = calibrateServer(spec, spec.targetTokensPerTool * factor, seed, tokenizer);
    files.set(`${spec.server}.json`, toStableJson({ server: spec.server, source, tools: calibrated.definitions }));
    spec.tools.forEach((t, i) => {
      const id = toolId(spec.server, t.name);
      metaTools.push([id, { summary: t.summary, tags: t.tags, preconditions: t.preconditions, sampleResponse: t.sampleResponse }]);
      tools.push(authoredTool(spec.server, t, calibrated.definitions[i]!));
    });
  }
  const meta: CatalogMetaFile = { generator: `tooltax ${SYNTHETIC_CATALOG_NAME}`, seed, tools: Object.fromEntries(metaTools) };
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

/** A catalog tool from an authored spec and its calibrated definition (the bench catalog and the scaling study's server instances). */
export function authoredTool(server: string, t: ToolSpec, definition: McpTool): CatalogTool {
  return {
    id: toolId(server, t.name),
    server,
    name: t.name,
    definition,
    summary: t.summary,
    summarySource: 'authored',
    tags: t.tags,
    preconditions: t.preconditions,
    sampleResponse: t.sampleResponse,
  };
}
