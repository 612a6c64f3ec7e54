import type { JsonSchema, McpTool } from '../../catalog/types.ts';
import { isPlainObject } from './json.ts';

/**
 * ADOL mechanism C: controllable response verbosity with `requireOutput` (draft §3.3,
 * Figure 5).
 *
 * 1. The tool schema offers the output field names: an optional input property
 *    `requireOutput` (array of unique strings from an enum) is added to `inputSchema`. The
 *    names are the tool's output-schema field paths, dotted, up to `maxDepth` segments;
 *    arrays are transparent (`pull_requests.number` is `number` in each element of the
 *    `pull_requests` array). A tool without an output schema with properties gets nothing.
 * 2. The model picks fields; the client trims the tool's response to them before it enters
 *    the context: a requested path keeps that whole subtree, a dotted path keeps only that
 *    child inside its parent (in every element of an array), unrequested fields are dropped.
 *
 * Which fields are requested (the measurement's stand-in for the model's choice) is a fixed,
 * documented rule, `requestedFields`: the identifying, status and pagination fields a
 * follow-up step needs to chain the next call, decide, or continue. It is applied to the
 * offered paths only; a tool where it matches nothing gets no `requireOutput` (full response).
 */
export interface RequireOutputConfig {
  /** Name of the added input property. */
  propertyName: string;
  /** Its description: the draft's Figure 5 wording. */
  description: string;
  /** Deepest dotted path offered (1 = top-level fields only). */
  maxDepth: number;
}

export const DEFAULT_REQUIRE_OUTPUT: RequireOutputConfig = {
  propertyName: 'requireOutput',
  description: "A list of output field names that the LLM expects to be returned from the tool's complete output.",
  maxDepth: 2,
};

/**
 * The request rule's vocabulary, fixed before measuring (not tuned). A leaf name (last path
 * segment, camelCase and kebab-case folded to snake_case, lower case) is requested when it is
 * one of IDENTITY_FIELDS, STATUS_FIELDS or PAGINATION_FIELDS, or ends with `_id`, `_key`,
 * `_url`, `_number`, `_status` or `_state`.
 */
const IDENTITY_FIELDS = [
  'id',
  'key',
  'number',
  'name',
  'title',
  'slug',
  'login',
  'sha',
  'ref',
  'path',
  'url',
  'uri',
  'html_url',
  'web_url',
  'permalink',
  'ts',
  'uuid',
] as const;
const STATUS_FIELDS = ['state', 'status', 'conclusion', 'merged', 'success', 'ok', 'error'] as const;
const PAGINATION_FIELDS = ['has_next_page', 'next_cursor', 'cursor', 'next_page_token', 'total', 'total_count'] as const;
const SUFFIXES = ['_id', '_key', '_url', '_number', '_status', '_state'];

function snakeName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s]+/g, '_')
    .toLowerCase();
}

export function isRequestedLeaf(name: string): boolean {
  const n = snakeName(name);
  const vocab: readonly string[] = [...IDENTITY_FIELDS, ...STATUS_FIELDS, ...PAGINATION_FIELDS];
  return vocab.includes(n) || SUFFIXES.some((s) => n.endsWith(s));
}

/** The field paths an output schema offers, in schema order, parents before children. */
export function outputFieldPaths(outputSchema: JsonSchema | undefined, maxDepth = DEFAULT_REQUIRE_OUTPUT.maxDepth): string[] {
  const out: string[] = [];
  const visit = (schema: unknown, prefix: string, depth: number) => {
    const props = objectProperties(schema);
    if (!props || depth > maxDepth) return;
    for (const [name, sub] of Object.entries(props)) {
      const path = prefix ? `${prefix}.${name}` : name;
      out.push(path);
      visit(sub, path, depth + 1);
    }
  };
  visit(outputSchema, '', 1);
  return out;
}

/** The properties of an object schema, looking through arrays (`items`). */
function objectProperties(schema: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(schema)) return undefined;
  if (isPlainObject(schema.properties)) return schema.properties;
  if (isPlainObject(schema.items)) return objectProperties(schema.items);
  return undefined;
}

/**
 * The rule's request for one tool: the offered paths whose leaf is an identity, status or
 * pagination field, minus those already covered by a requested ancestor.
 */
export function requestedFields(offered: readonly string[]): string[] {
  const hits = offered.filter((p) => isRequestedLeaf(p.split('.').at(-1)!));
  return hits.filter((p) => !hits.some((q) => q !== p && p.startsWith(`${q}.`)));
}

/** Adds the `requireOutput` property to a tool's input schema (new object), or returns the tool unchanged when it offers no fields. */
export function withRequireOutput(def: McpTool, offered: readonly string[], config: RequireOutputConfig = DEFAULT_REQUIRE_OUTPUT): McpTool {
  if (!offered.length) return def;
  const input = def.inputSchema;
  const props = isPlainObject(input.properties) ? input.properties : {};
  if (Object.hasOwn(props, config.propertyName)) return def;
  const property = {
    description: config.description,
    type: 'array',
    items: { type: 'string', enum: [...offered] },
    uniqueItems: true,
  };
  return { ...def, inputSchema: { ...input, type: input.type ?? 'object', properties: { ...props, [config.propertyName]: property } } };
}

type PathTree = true | Map<string, PathTree>;

function buildTree(paths: readonly string[]): Map<string, PathTree> {
  const root = new Map<string, PathTree>();
  for (const path of paths) {
    const parts = path.split('.');
    let node = root;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      const cur = node.get(part);
      if (cur === true) break; // a requested ancestor keeps everything below it
      if (i === parts.length - 1) {
        node.set(part, true);
        break;
      }
      const next = cur ?? new Map<string, PathTree>();
      node.set(part, next);
      node = next;
    }
  }
  return root;
}

/**
 * The client-side filter: keeps only the requested paths of a response (see the rules at the
 * top). Arrays are filtered element by element; a primitive where an object was expected is
 * kept as it is. With no paths the response is returned unchanged (nothing was requested).
 */
export function trimResponse(response: unknown, paths: readonly string[]): unknown {
  if (!paths.length) return response;
  return trimWith(response, buildTree(paths));
}

function trimWith(value: unknown, tree: PathTree): unknown {
  if (tree === true) return value;
  if (Array.isArray(value)) return value.map((v) => trimWith(v, tree));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const sub = tree.get(k);
    if (sub !== undefined) Object.defineProperty(out, k, { value: trimWith(v, sub), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
