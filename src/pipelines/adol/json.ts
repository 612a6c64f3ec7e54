/**
 * Small JSON helpers shared by the ADOL mechanisms: canonical (key-sorted) serialisation for
 * "identical definition" tests, deep clone, and a schema-aware walk that only visits schema
 * positions (never the data inside `default`, `const`, `examples` or `enum`).
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * JSON with object keys sorted at every level: equal strings ⇔ deep-equal JSON values. Keys in
 * the order JSON.stringify gives an object built in sorted order (array-index keys first, in
 * numeric order), so the text equals `JSON.stringify` of a key-sorted copy; a `__proto__` key is
 * kept as the own property JSON.parse makes it. `memo` (by object identity) serves a walk that
 * asks for the canonical text of a value and then of each of its sub-values: each sub-value is
 * serialised once instead of once per ancestor. Only for values not modified while it is used.
 */
export function canonicalJson(value: unknown, memo?: Map<object, string>): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  const known = memo?.get(value);
  if (known !== undefined) return known;
  let out: string;
  if (Array.isArray(value)) {
    out = `[${value.map((v) => (omitted(v) ? 'null' : canonicalJson(v, memo))).join(',')}]`;
  } else {
    const parts: string[] = [];
    for (const [k, v] of sortedEntries(value as Record<string, unknown>))
      if (!omitted(v)) parts.push(`${JSON.stringify(k)}:${canonicalJson(v, memo)}`);
    out = `{${parts.join(',')}}`;
  }
  memo?.set(value, out);
  return out;
}

/** Values JSON.stringify leaves out of an object (and writes as null in an array). */
function omitted(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;
function isArrayIndex(k: string): boolean {
  return ARRAY_INDEX.test(k) && Number(k) < 2 ** 32 - 1;
}

function sortedEntries(record: Record<string, unknown>): [string, unknown][] {
  const entries = Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (!entries.some(([k]) => isArrayIndex(k))) return entries;
  const indexes = entries.filter(([k]) => isArrayIndex(k)).sort(([a], [b]) => Number(a) - Number(b));
  return [...indexes, ...entries.filter(([k]) => !isArrayIndex(k))];
}

export function deepClone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** Keywords whose value is a map of name → subschema. */
export const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;
/** Keywords whose value is one subschema. */
export const SCHEMA_KEYWORDS = [
  'items',
  'additionalProperties',
  'additionalItems',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
] as const;
/** Keywords whose value is an array of subschemas. */
export const SCHEMA_ARRAY_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
// As sets: the walk tests every key of every schema it visits.
const MAP_KEYWORDS = new Set<string>(SCHEMA_MAP_KEYWORDS);
const ONE_KEYWORDS = new Set<string>(SCHEMA_KEYWORDS);
const ARRAY_KEYWORDS = new Set<string>(SCHEMA_ARRAY_KEYWORDS);

/**
 * A place in a schema where a value sits: `holder[key]` (an object property or an array index).
 * `context` is the JSON key text in front of the value (`"owner":`), used to count the
 * tokens a value costs where it stands; empty for array elements.
 */
export interface Slot {
  holder: Record<string, unknown> | unknown[];
  key: string | number;
  /**
   * The schema object the slot belongs to: the holder itself, or the object whose keyword
   * holds the holder (a `properties` map, an `items` or `anyOf` array). With `holder` it gives
   * the path up the document (dedup.ts uses it to forget memoised texts of changed objects).
   */
  schema: Record<string, unknown>;
  context: string;
  /** What kind of position: a property definition, array items, a required list, an enum... */
  kind: SlotKind;
  /** Name hint for a hoisted definition (the property name, `items`...). */
  hint: string;
}

export type SlotKind = 'property' | 'items' | 'required' | 'enum' | 'input-schema' | 'output-schema';

/**
 * Visits every slot of `schema` (a JSON Schema object) in document order, parents before
 * children. The visitor sees the slot's current value; the walk then descends into the value
 * as it is after the visitor returned (so a replaced value is not descended into).
 */
export function walkSchema(schema: unknown, visit: (slot: Slot, value: unknown) => void): void {
  if (!isPlainObject(schema)) return;
  for (const [kw, v] of Object.entries(schema)) {
    if (MAP_KEYWORDS.has(kw) && isPlainObject(v)) {
      for (const name of Object.keys(v)) {
        visitAndDescend({ holder: v, schema, key: name, context: `${JSON.stringify(name)}:`, kind: 'property', hint: name }, visit);
      }
    } else if (ONE_KEYWORDS.has(kw)) {
      if (kw === 'items' && Array.isArray(v)) {
        v.forEach((_, i) => visitAndDescend({ holder: v, schema, key: i, context: '', kind: 'items', hint: 'item' }, visit));
      } else if (isPlainObject(v)) {
        visitAndDescend(
          {
            holder: schema,
            schema,
            key: kw,
            context: `${JSON.stringify(kw)}:`,
            kind: kw === 'items' ? 'items' : 'property',
            hint: kw === 'items' ? 'item' : kw,
          },
          visit,
        );
      }
    } else if (ARRAY_KEYWORDS.has(kw) && Array.isArray(v)) {
      v.forEach((_, i) => visitAndDescend({ holder: v, schema, key: i, context: '', kind: 'items', hint: kw }, visit));
    } else if (kw === 'required' && Array.isArray(v)) {
      visit({ holder: schema, schema, key: kw, context: '"required":', kind: 'required', hint: 'required' }, v);
    } else if (kw === 'enum' && Array.isArray(v)) {
      visit({ holder: schema, schema, key: kw, context: '"enum":', kind: 'enum', hint: 'enum' }, v);
    }
  }
}

/** Assigns `holder[key]` as an own data property (safe for keys such as `__proto__`). */
export function setSlot(holder: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
  Object.defineProperty(holder, key, { value, enumerable: true, writable: true, configurable: true });
}

export function getSlot(holder: Record<string, unknown> | unknown[], key: string | number): unknown {
  const record = holder as Record<string | number, unknown>;
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function visitAndDescend(slot: Slot, visit: (slot: Slot, value: unknown) => void): void {
  visit(slot, getSlot(slot.holder, slot.key));
  // Read again: visit may have replaced the value.
  walkSchema(getSlot(slot.holder, slot.key), visit);
}
