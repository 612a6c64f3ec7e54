import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { countTokens } from '../tokens/counter.ts';
import { describeValue, InputError, jsonParseReason } from '../util/input-error.ts';
import { isObject, ownValue } from '../util/json.ts';
import { checkKnownKeys, misspeltKeyHint } from '../util/known-keys.ts';
import { didYouMean } from '../util/nearest.ts';
import { catalogNameFromPaths } from '../util/paths.ts';
import { checkJsonLimits, DEFAULT_LIMITS, fsReason, limitExceeded, readInputFile, type InputLimits } from '../util/limits.ts';
import { META_FILE, type CatalogMetaFile, type ToolMeta } from './meta.ts';
import { toolId, type Catalog, type CatalogTool, type McpTool, type Precondition, type RepeatedTool } from './types.ts';

/**
 * Reads a catalog: one MCP `tools/list` dump or a folder of them, plus an optional
 * `catalog.meta.json`. A dump may be
 *   - a JSON array of tools (server named after the file),
 *   - `{ "tools": [...] }`, optionally with `"server"` (the format of catalogs/real),
 *   - a JSON-RPC response `{ "result": { "tools": [...] } }`,
 *   - `{ "servers": [ { "server": "...", "tools": [...] }, ... ] }` for several servers.
 * Unknown fields on tools are kept as they are.
 */
export interface LoadOptions {
  /** 'refuse' (default): a name listed twice by one server is a one-line error; 'keep-first': the repeat goes to `catalog.repeated` (for lint, which reports it as a finding). */
  repeatedNames?: 'refuse' | 'keep-first';
}

export function loadCatalog(
  pathOrPaths: string | readonly string[],
  limits: InputLimits = DEFAULT_LIMITS,
  options: LoadOptions = {},
): Catalog {
  const paths = typeof pathOrPaths === 'string' ? [pathOrPaths] : [...pathOrPaths];
  const tools: CatalogTool[] = [];
  const seen = new Map<string, SeenTool>();
  const repeated: RepeatedTool[] | undefined = options.repeatedNames === 'keep-first' ? [] : undefined;
  for (const path of paths) loadInto(path, tools, seen, limits, repeated);
  // Nothing to measure: every table would divide by zero tools.
  if (tools.length === 0) throw new InputError(paths.join(', '), '', 'at least one tool', 'none');
  const servers = [...new Set(tools.map((t) => t.server))];
  const name = catalogNameFromPaths(paths);
  return { name, source: paths.join(', '), servers, tools, ...(repeated?.length ? { repeated } : {}) };
}

/** A tool already loaded, by id: where it came from. */
interface SeenTool {
  server: string;
  name: string;
  file: string;
}

function loadInto(
  path: string,
  tools: CatalogTool[],
  seen: Map<string, SeenTool>,
  limits: InputLimits,
  repeated: RepeatedTool[] | undefined,
): void {
  if (!existsSync(path)) throw new InputError(path, '', 'a tools/list JSON file or a folder of them', `nothing at ${resolve(path)}`);
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (err) {
    throw new InputError(path, '', 'a tools/list JSON file or a folder of them', fsReason(err));
  }
  const files = isDir
    ? listFolder(path)
        .filter((f) => f.endsWith('.json') && f !== META_FILE)
        .sort()
        .map((f) => join(path, f))
    : [path];
  if (files.length === 0) throw new InputError(path, '', 'at least one .json tools/list dump in the folder', 'none');
  const metaPath = join(isDir ? path : join(path, '..'), META_FILE);
  const meta = existsSync(metaPath) ? readMeta(metaPath, limits) : undefined;
  for (const file of files) {
    for (const group of readDump(file, limits)) {
      group.tools.forEach((def, i) => {
        const id = toolId(group.server, def.name);
        const where = `${group.path}[${i}].name`;
        if (tools.length >= limits.maxTools) throw limitExceeded(file, `${group.path}[${i}]`, 'maxTools', limits, 'more tools');
        const first = seen.get(id);
        // The same (server, name) pair is a repeated tool; another pair with the same id (server
        // "x" tool "a/b", server "x/a" tool "b") is two tools the id cannot tell apart.
        if (first && first.server === group.server && first.name === def.name && repeated) {
          repeated.push({ id, definition: def, file, path: `${group.path}[${i}]`, firstFile: first.file });
          return;
        }
        if (first && first.server === group.server && first.name === def.name)
          throw new InputError(
            file,
            where,
            `a tool name unique within server "${group.server}"`,
            `"${def.name}" again (first in ${first.file})`,
          );
        if (first)
          throw new InputError(
            file,
            where,
            'a tool id (server/name) unique in the catalog',
            `"${id}", the id of server ${JSON.stringify(first.server)} tool ${JSON.stringify(first.name)} too (in ${first.file})`,
          );
        seen.set(id, { server: group.server, name: def.name, file });
        tools.push(withMeta(group.server, def, meta && ownValue(meta.tools, id)));
      });
    }
  }
}

interface ServerGroup {
  server: string;
  path: string;
  tools: McpTool[];
}

function listFolder(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (err) {
    throw new InputError(dir, '', 'a readable folder of tools/list dumps', fsReason(err));
  }
}

/** A dump or meta file, parsed and within the size and depth limits (every field, known or not). */
function readJson(file: string, limits: InputLimits): unknown {
  const text = readInputFile(file, limits);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new InputError(file, '', 'valid JSON', jsonParseReason(err));
  }
  checkJsonLimits(file, '$', data, limits);
  return data;
}

function readDump(file: string, limits: InputLimits): ServerGroup[] {
  const data = readJson(file, limits);
  const fileServer = basename(file).replace(/\.json$/, '');
  if (Array.isArray(data)) return [{ server: fileServer, path: '$', tools: readTools(file, '$', data) }];
  if (!isObject(data)) throw new InputError(file, '$', 'an array of tools or an object with "tools"', describeValue(data));
  if (Array.isArray(data.servers)) {
    return data.servers.map((s, i) => {
      const p = `$.servers[${i}]`;
      if (!isObject(s)) throw new InputError(file, p, 'an object with "server" and "tools"', describeValue(s));
      const name = s.server ?? s.name;
      if (typeof name !== 'string' || !name) throw new InputError(file, `${p}.server`, 'a server name (string)', describeValue(name));
      return { server: name, path: `${p}.tools`, tools: readTools(file, `${p}.tools`, s.tools) };
    });
  }
  const server = typeof data.server === 'string' && data.server ? data.server : fileServer;
  if (isObject(data.result) && 'tools' in data.result) {
    return [{ server, path: '$.result.tools', tools: readTools(file, '$.result.tools', data.result.tools) }];
  }
  if (!('tools' in data)) {
    const near = Object.keys(data)
      .map((k) => didYouMean(k, ['tools', 'result', 'servers'], 1, (s) => `"${s}"`))
      .find(Boolean);
    throw new InputError(
      file,
      '$',
      'an array of tools, or an object with "tools", "result.tools" or "servers"',
      `${describeValue(data)}, none of them one of these${near ?? ''}`,
    );
  }
  return [{ server, path: '$.tools', tools: readTools(file, '$.tools', data.tools) }];
}

function readTools(file: string, path: string, value: unknown): McpTool[] {
  if (!Array.isArray(value)) throw new InputError(file, path, 'an array of tools', describeValue(value));
  return value.map((t, i) => validateTool(file, `${path}[${i}]`, t));
}

export function validateTool(file: string, path: string, t: unknown): McpTool {
  if (!isObject(t)) throw new InputError(file, path, 'a tool object', describeValue(t));
  if (typeof t.name !== 'string' || t.name.trim() === '')
    throw new InputError(file, `${path}.name`, 'a non-empty string', describeValue(t.name));
  if (!isObject(t.inputSchema))
    throw new InputError(
      file,
      `${path}.inputSchema`,
      'a JSON Schema object (MCP requires inputSchema)',
      `${describeValue(t.inputSchema)}${t.inputSchema === undefined ? misspeltKeyHint(t, 'inputSchema') : ''}`,
    );
  for (const key of ['description', 'title'] as const) {
    if (t[key] !== undefined && typeof t[key] !== 'string') throw new InputError(file, `${path}.${key}`, 'a string', describeValue(t[key]));
  }
  for (const key of ['outputSchema', 'annotations'] as const) {
    if (t[key] !== undefined && !isObject(t[key])) throw new InputError(file, `${path}.${key}`, 'an object', describeValue(t[key]));
  }
  return t as McpTool;
}

/** The keys of a tool's entry in catalog.meta.json (ToolMeta); any other is refused. */
const META_KEYS = ['summary', 'tags', 'preconditions', 'sampleResponse'];

function readMeta(file: string, limits: InputLimits): CatalogMetaFile {
  const data = readJson(file, limits);
  if (!isObject(data) || !isObject(data.tools))
    throw new InputError(file, '$.tools', 'an object keyed by tool id (server/name)', describeValue(isObject(data) ? data.tools : data));
  for (const [id, m] of Object.entries(data.tools)) {
    const p = `$.tools["${id}"]`;
    if (!isObject(m)) throw new InputError(file, p, 'an object', describeValue(m));
    checkKnownKeys(file, p, m, META_KEYS, "a tool's metadata");
    if (m.summary !== undefined && typeof m.summary !== 'string')
      throw new InputError(file, `${p}.summary`, 'a string', describeValue(m.summary));
    if (m.tags !== undefined && !(Array.isArray(m.tags) && m.tags.every((x) => typeof x === 'string')))
      throw new InputError(file, `${p}.tags`, 'an array of strings', describeValue(m.tags));
    if (m.preconditions !== undefined) {
      if (!Array.isArray(m.preconditions)) throw new InputError(file, `${p}.preconditions`, 'an array', describeValue(m.preconditions));
      m.preconditions.forEach((pc, j) => validatePrecondition(file, `${p}.preconditions[${j}]`, pc));
    }
  }
  return data as unknown as CatalogMetaFile;
}

function validatePrecondition(file: string, path: string, pc: unknown): asserts pc is Precondition {
  if (isObject(pc) && pc.kind === 'requires_auth' && typeof pc.scope === 'string') return;
  if (isObject(pc) && pc.kind === 'after_tool_output' && Array.isArray(pc.prefixes) && pc.prefixes.every((x) => typeof x === 'string'))
    return;
  throw new InputError(
    file,
    path,
    '{"kind":"requires_auth","scope":string} or {"kind":"after_tool_output","prefixes":[string]}',
    describeValue(pc),
  );
}

function withMeta(server: string, definition: McpTool, meta: ToolMeta | undefined): CatalogTool {
  const summary = meta?.summary;
  return {
    id: toolId(server, definition.name),
    server,
    name: definition.name,
    definition,
    summary: summary ?? deriveSummary(definition),
    summarySource: summary ? 'authored' : 'derived',
    tags: meta?.tags ?? [server],
    preconditions: meta?.preconditions ?? [],
    sampleResponse: meta?.sampleResponse,
  };
}

const SUMMARY_TOKEN_BUDGET = 60;
/** The longest cl100k/o200k token is 128 bytes (so at most 128 characters). */
const MAX_TOKEN_CHARS = 128;

/**
 * A summary for a tool that has none: its name in words and the first sentence of its
 * description, cut to the 60-token budget. Recorded as `derived` in results.
 */
export function deriveSummary(definition: McpTool): string {
  const words = definition.name
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  const desc = (definition.description ?? definition.title ?? '').replace(/\s+/g, ' ').trim();
  const first = desc.split(/(?<=[.!?])\s/)[0] ?? '';
  let text = first ? `${words}: ${first}` : words;
  // Cut by characters first, so the loop below counts at most ~60 short texts whatever the
  // input's length. Exact: a word prefix longer than the budget in words, or than
  // budget × the longest token in characters, cannot fit, and the loop drops words from the end,
  // so starting it at the longest prefix that might fit gives the same summary.
  const all = text.split(' ');
  let keep = 0;
  for (let chars = 0; keep < all.length && keep <= SUMMARY_TOKEN_BUDGET; keep++) {
    chars += all[keep]!.length + 1;
    if (chars > (SUMMARY_TOKEN_BUDGET + 1) * MAX_TOKEN_CHARS) break;
  }
  if (keep < all.length) {
    text = `${all.slice(0, Math.max(keep, 1)).join(' ')}…`.replace(/…+$/, '…');
    if (!text.includes(' ')) return text; // where the loop would stop after dropping a word
  }
  while (countTokens(text) > SUMMARY_TOKEN_BUDGET) {
    text = `${text.split(' ').slice(0, -1).join(' ')}…`.replace(/…+$/, '…');
    if (!text.includes(' ')) break;
  }
  return text;
}
