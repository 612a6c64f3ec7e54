import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { readJsonFile, type JsonFileFormat } from '../util/json-file.ts';
import { fileURLToPath } from 'node:url';
import { SERVER_SPECS } from './servers/index.ts';
import type { Catalog, CatalogTool } from './types.ts';
import { isObject, ownValue } from '../util/json.ts';
import { cached, runCache } from '../util/run-scope.ts';

/**
 * What a call of each catalog tool returns, as the text a host puts in the context, and how
 * that text was obtained (docs/measurement.md, "Tool results"):
 *
 * - `measured`: the tool was run. The result was captured from the real server with
 *   `scripts/capture-tool-results.ts` into `catalogs/real/results/`, and applies only to the
 *   tool whose definition (keys sorted) hashes to the recorded `definitionSha256`.
 * - `sample` †: the catalog's own response body (the synthetic catalog's authored
 *   `sampleResponse`, written to follow each tool's outputSchema).
 * - `output-schema` †: an instance of the tool's outputSchema (every property, ARRAY_ITEMS
 *   items per array, a string names its field): a schema gives shape, not size, so this is a
 *   lower bound for tools that return long text.
 * - `nearest-sample` †: no schema and no run: the authored sample of the synthetic tool whose
 *   name shares the most words with this one, on the synthetic server of the same kind.
 *
 * Everything but `measured` is modelled and marked † wherever it is shown.
 */
export type ToolResultSource = 'measured' | 'sample' | 'output-schema' | 'nearest-sample';

export interface ToolResult {
  /** The result's text as it enters the context (JSON for a structured body). */
  text: string;
  /** The parsed body when the result is JSON, for code that filters it. */
  value?: unknown;
  source: ToolResultSource;
}

/** Items per array in an outputSchema instance. */
export const ARRAY_ITEMS = 3;
const MAX_DEPTH = 6;

/** The result of every tool of the catalog, by tool id (a caller that needs many keeps the map for its run). */
export function toolResults(catalog: Catalog): ReadonlyMap<string, ToolResult> {
  return new Map(catalog.tools.map((t) => [t.id, resultOf(t, measuredTable())]));
}

/** The result of one tool of the catalog. */
export function toolResult(catalog: Catalog, id: string): ToolResult {
  const tool = catalog.tools.find((t) => t.id === id);
  if (!tool) throw new Error(`tool results: unknown tool ${id}`);
  return resultOf(tool, measuredTable());
}

/**
 * The captured results bundled in catalogs/real/results, read once per run on first use: a run
 * reads the files as they are when it starts, and a later run in the same process reads them again.
 */
const MEASURED = runCache('the captured tool results of catalogs/real/results', () => measuredResults());
function measuredTable(): MeasuredTable {
  return cached(MEASURED);
}

/** The captured results by definition hash, and the names of their tools. */
interface MeasuredTable {
  byHash: ReadonlyMap<string, string>;
  /** A tool of another name has another definition: it is not hashed (hashing every tool of every catalog was most of the cost). */
  names: ReadonlySet<string>;
}

function resultOf(tool: CatalogTool, measured: MeasuredTable): ToolResult {
  const run = measured.names.has(tool.definition.name) ? measured.byHash.get(definitionHash(tool)) : undefined;
  if (run !== undefined) return { text: run, value: parsed(run), source: 'measured' };
  if (tool.sampleResponse !== undefined) return json(tool.sampleResponse, 'sample');
  const out = tool.definition.outputSchema;
  if (isObject(out) && (isObject(out.properties) || out.type !== undefined)) return json(instanceOf(out, tool.name, 0), 'output-schema');
  return json(nearestSample(tool), 'nearest-sample');
}

function json(value: unknown, source: ToolResultSource): ToolResult {
  return { text: JSON.stringify(value), value, source };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** sha256 of the definition with its object keys sorted: the same tool, whatever order a server writes its fields in. */
export function definitionHash(tool: Pick<CatalogTool, 'definition'>): string {
  const sorted = JSON.stringify(tool.definition, (_key, v: unknown) =>
    isObject(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, ownValue(v, k)]),
        )
      : v,
  );
  return createHash('sha256').update(sorted).digest('hex');
}

/** A deterministic instance of a JSON Schema: every property, ARRAY_ITEMS items per array. */
export function instanceOf(schema: unknown, name: string, depth: number): unknown {
  if (!isObject(schema) || depth > MAX_DEPTH) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    const first = Array.isArray(schema[key]) ? (schema[key] as unknown[])[0] : undefined;
    if (first !== undefined && schema.type === undefined && schema.properties === undefined) return instanceOf(first, name, depth + 1);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object' || (type === undefined && isObject(schema.properties))) {
    const props = isObject(schema.properties) ? schema.properties : {};
    return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, instanceOf(v, k, depth + 1)]));
  }
  if (type === 'array') return Array.from({ length: ARRAY_ITEMS }, () => instanceOf(schema.items, name, depth + 1));
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  if (type === 'null') return null;
  if (schema.format === 'date-time') return '2025-06-01T12:00:00Z';
  if (schema.format === 'uri') return `https://example.com/${name}`;
  return `<${name}>`;
}

/** The synthetic server of the same kind as a real one, by a word of the real server's name. */
const SAME_KIND: readonly [RegExp, string][] = [
  [/github|gitlab|\bgit\b/i, 'github'],
  [/filesystem/i, 'filesystem'],
  [/supabase|postgres|sqlite|database/i, 'database'],
  [/slack/i, 'slack'],
  [/firecrawl|fetch|brave|tavily|puppeteer|web/i, 'web'],
  [/jira|atlassian|confluence/i, 'jira'],
];

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** The authored sample of the synthetic tool nearest by name (word overlap), same kind of server first. */
function nearestSample(tool: CatalogTool): unknown {
  const kind = SAME_KIND.find(([pattern]) => pattern.test(tool.server))?.[1];
  const server = SERVER_SPECS.find((s) => s.server === kind);
  const pool = server ? server.tools : SERVER_SPECS.flatMap((s) => s.tools);
  const mine = words(tool.name);
  let best = pool[0]!;
  let bestScore = -1;
  for (const candidate of pool) {
    const theirs = words(candidate.name);
    const shared = theirs.filter((w) => mine.includes(w)).length;
    const score = shared / (mine.length + theirs.length - shared || 1);
    if (score > bestScore) [best, bestScore] = [candidate, score];
  }
  return best.sampleResponse;
}

/** One captured result file of catalogs/real/results (written by scripts/capture-tool-results.ts). */
export interface MeasuredResultsFile {
  server: string;
  capture: string;
  results: { tool: string; definitionSha256: string; arguments: Record<string, unknown>; text: string }[];
}

/** What the bench reads of a measured results file (the rest is provenance for readers). */
const MEASURED_RESULTS_FORMAT: JsonFileFormat<{ results: { tool: string; definitionSha256: string; text: string }[] }> = {
  what: 'measured tool results (catalogs/real/results/*.json)',
  schema: {
    type: 'object',
    required: ['results'],
    properties: {
      results: {
        type: 'array',
        items: {
          type: 'object',
          required: ['tool', 'definitionSha256', 'text'],
          properties: { tool: { type: 'string' }, definitionSha256: { type: 'string' }, text: { type: 'string' } },
        },
      },
    },
  },
};

const RESULTS_DIR = fileURLToPath(new URL('../../catalogs/real/results/', import.meta.url));

/** The measured results shipped with the repository, by definition hash, and their tools' names. */
function measuredResults(): MeasuredTable {
  const byHash = new Map<string, string>();
  const names = new Set<string>();
  let files: string[] = [];
  try {
    files = readdirSync(RESULTS_DIR).filter((f) => f.endsWith('.json'));
  } catch {
    return { byHash, names };
  }
  for (const f of files.sort()) {
    const data = readJsonFile(RESULTS_DIR + f, MEASURED_RESULTS_FORMAT);
    for (const r of data.results) {
      byHash.set(r.definitionSha256, r.text);
      names.add(r.tool);
    }
  }
  return { byHash, names };
}

/** The result model's sources, for a table note: how many tools' results each source gave. */
export function resultSourceCounts(catalog: Catalog): Record<ToolResultSource, number> {
  const counts: Record<ToolResultSource, number> = { measured: 0, sample: 0, 'output-schema': 0, 'nearest-sample': 0 };
  for (const r of toolResults(catalog).values()) counts[r.source]++;
  return counts;
}
