import type { McpTool } from './types.ts';
import { isObject } from '../util/json.ts';

/**
 * Wire size versus inlined size of definitions that use `$ref`. A client that cannot pass
 * references to its model (many function-calling APIs cannot) inlines them, and the model
 * then reads the inlined schema. Only internal references (`#...`, a JSON Pointer into the
 * same inputSchema/outputSchema) are resolved, in memory; a reference to a file or URL is
 * never fetched and stays as it is (listed in `external`). A reference that leads back into
 * itself stays too (listed in `cyclic`). Sibling keywords of a `$ref` are kept over the
 * referenced schema's. After inlining, `$defs`/`definitions` are dropped when nothing points
 * into them any more.
 */
export interface RefInlining {
  /** The definition with internal references replaced (a new object). */
  inlined: McpTool;
  refs: number;
  resolved: number;
  /** Distinct references left as they are: to a file or URL, leading back into themselves, pointing at nothing. */
  external: string[];
  cyclic: string[];
  broken: string[];
  /** Set when inlining stopped because the result grew past the limit (a reference bomb). */
  truncated: boolean;
}

const MAX_NODES = 200_000;

export function hasRef(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasRef);
  if (isObject(value)) return typeof value.$ref === 'string' || Object.values(value).some(hasRef);
  return false;
}

/** Undefined when the definition has no `$ref` in inputSchema or outputSchema. */
export function inlineRefs(def: McpTool): RefInlining | undefined {
  if (!hasRef(def.inputSchema) && !hasRef(def.outputSchema)) return undefined;
  const r: Omit<RefInlining, 'inlined'> = { refs: 0, resolved: 0, external: [], cyclic: [], broken: [], truncated: false };
  let nodes = 0;
  const inlineSchema = (root: Record<string, unknown>): Record<string, unknown> => {
    const walk = (value: unknown, stack: readonly string[], countRefs: boolean): unknown => {
      if (++nodes > MAX_NODES) {
        r.truncated = true;
        return value;
      }
      if (Array.isArray(value)) return value.map((v) => walk(v, stack, countRefs));
      if (!isObject(value)) return value;
      const ref = value.$ref;
      if (typeof ref === 'string') {
        if (countRefs) r.refs++;
        const siblings = Object.fromEntries(
          Object.entries(value)
            .filter(([k]) => k !== '$ref')
            .map(([k, v]) => [k, walk(v, stack, countRefs)]),
        );
        const note = (list: string[]) => {
          if (!list.includes(ref)) list.push(ref);
        };
        if (!ref.startsWith('#')) {
          note(r.external);
          return { $ref: ref, ...siblings };
        }
        if (stack.includes(ref)) {
          note(r.cyclic);
          return { $ref: ref, ...siblings };
        }
        const target = resolvePointer(root, ref);
        if (target === undefined) {
          note(r.broken);
          return { $ref: ref, ...siblings };
        }
        if (countRefs) r.resolved++;
        // Refs inside the target are expanded (counted once each where they are written, not per expansion).
        const expanded = walk(target, [...stack, ref], false);
        return isObject(expanded) ? { ...expanded, ...siblings } : expanded;
      }
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, stack, countRefs)]));
    };
    const out = walk(root, [], true) as Record<string, unknown>;
    for (const key of ['$defs', 'definitions']) {
      if (Object.hasOwn(out, key) && !pointsInto(out, `#/${key}`)) delete out[key];
    }
    return out;
  };
  const inlined: McpTool = { ...def };
  if (isObject(def.inputSchema)) inlined.inputSchema = inlineSchema(def.inputSchema);
  if (isObject(def.outputSchema)) inlined.outputSchema = inlineSchema(def.outputSchema);
  return { inlined, ...r };
}

function pointsInto(value: unknown, prefix: string): boolean {
  if (Array.isArray(value)) return value.some((v) => pointsInto(v, prefix));
  if (!isObject(value)) return false;
  if (typeof value.$ref === 'string' && (value.$ref === prefix || value.$ref.startsWith(`${prefix}/`))) return true;
  return Object.values(value).some((v) => pointsInto(v, prefix));
}

/** RFC 6901 JSON Pointer in a URI fragment (`#/a/b~1c`, percent-decoded). */
export function resolvePointer(root: unknown, ref: string): unknown {
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (fragment === '') return root;
  if (!fragment.startsWith('/')) return undefined; // an anchor (#name): not resolved
  let cur: unknown = root;
  for (const raw of fragment.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(cur) && /^\d+$/.test(key)) cur = cur[Number(key)];
    else if (isObject(cur) && Object.hasOwn(cur, key)) cur = cur[key];
    else return undefined;
  }
  return cur;
}
