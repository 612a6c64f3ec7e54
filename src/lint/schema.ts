import { isPlainObject, SCHEMA_ARRAY_KEYWORDS, SCHEMA_KEYWORDS, SCHEMA_MAP_KEYWORDS } from '../pipelines/adol/json.ts';

/**
 * The subschemas of a JSON Schema, by keyword (the keyword lists ADOL's walk uses): a rule sees
 * schema positions only, never the data inside `default`, `const`, `enum` or `examples`, so a
 * property named "examples" or "description" is a property, not a keyword.
 */
type Path = string;

const MAP = new Set<string>(SCHEMA_MAP_KEYWORDS);
const ONE = new Set<string>(SCHEMA_KEYWORDS);
const MANY = new Set<string>(SCHEMA_ARRAY_KEYWORDS);

/** Visits `schema` and every subschema below it, parents first, with a JSON path from `path`. */
export function eachSubschema(schema: unknown, visit: (s: Record<string, unknown>, path: Path) => void, path: Path = '$'): void {
  if (!isPlainObject(schema)) return;
  visit(schema, path);
  for (const [kw, v] of Object.entries(schema)) {
    if (MAP.has(kw) && isPlainObject(v)) for (const [k, sub] of Object.entries(v)) eachSubschema(sub, visit, `${path}.${kw}.${k}`);
    else if ((ONE.has(kw) || MANY.has(kw)) && Array.isArray(v)) v.forEach((sub, i) => eachSubschema(sub, visit, `${path}.${kw}[${i}]`));
    else if (ONE.has(kw)) eachSubschema(v, visit, `${path}.${kw}`);
  }
}

/**
 * A copy of `schema` with `edit` applied to every subschema (children first); `edit` gets a
 * copy it may change and returns it. Values that are not schemas are copied as they are.
 */
export function mapSubschemas(schema: unknown, edit: (s: Record<string, unknown>) => Record<string, unknown>): unknown {
  if (!isPlainObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [kw, v] of Object.entries(schema)) {
    let next: unknown = v;
    if (MAP.has(kw) && isPlainObject(v)) next = Object.fromEntries(Object.entries(v).map(([k, sub]) => [k, mapSubschemas(sub, edit)]));
    else if ((ONE.has(kw) || MANY.has(kw)) && Array.isArray(v)) next = v.map((sub) => mapSubschemas(sub, edit));
    else if (ONE.has(kw)) next = mapSubschemas(v, edit);
    Object.defineProperty(out, kw, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return edit(out);
}
