/**
 * Small JSON helpers shared by the ADOL mechanisms: canonical (key-sorted) serialisation for
 * "identical definition" tests, deep clone, and a schema-aware walk that only visits schema
 * positions (never the data inside `default`, `const`, `examples` or `enum`).
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** JSON with object keys sorted at every level: equal strings ⇔ deep-equal JSON values. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = sortKeys(value[k]);
    return out;
  }
  return value;
}

export function deepClone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** Keywords whose value is a map of name → subschema. */
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;
/** Keywords whose value is one subschema. */
const SCHEMA_KEYWORDS = [
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
const SCHEMA_ARRAY_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;

/**
 * A place in a schema where a value sits: `holder[key]` (an object property or an array index).
 * `context` is the JSON key text in front of the value (`"owner":`), used to count the
 * tokens a value costs where it stands; empty for array elements.
 */
export interface Slot {
  holder: Record<string, unknown> | unknown[];
  key: string | number;
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
    if ((SCHEMA_MAP_KEYWORDS as readonly string[]).includes(kw) && isPlainObject(v)) {
      for (const name of Object.keys(v)) {
        visitAndDescend({ holder: v, key: name, context: `${JSON.stringify(name)}:`, kind: 'property', hint: name }, visit);
      }
    } else if ((SCHEMA_KEYWORDS as readonly string[]).includes(kw)) {
      if (kw === 'items' && Array.isArray(v)) {
        v.forEach((_, i) => visitAndDescend({ holder: v, key: i, context: '', kind: 'items', hint: 'item' }, visit));
      } else if (isPlainObject(v)) {
        visitAndDescend(
          {
            holder: schema,
            key: kw,
            context: `${JSON.stringify(kw)}:`,
            kind: kw === 'items' ? 'items' : 'property',
            hint: kw === 'items' ? 'item' : kw,
          },
          visit,
        );
      }
    } else if ((SCHEMA_ARRAY_KEYWORDS as readonly string[]).includes(kw) && Array.isArray(v)) {
      v.forEach((_, i) => visitAndDescend({ holder: v, key: i, context: '', kind: 'items', hint: kw }, visit));
    } else if (kw === 'required' && Array.isArray(v)) {
      visit({ holder: schema, key: kw, context: '"required":', kind: 'required', hint: 'required' }, v);
    } else if (kw === 'enum' && Array.isArray(v)) {
      visit({ holder: schema, key: kw, context: '"enum":', kind: 'enum', hint: 'enum' }, v);
    }
  }
}

/** Assigns `holder[key]` as an own data property (safe for keys such as `__proto__`). */
export function setSlot(holder: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
  Object.defineProperty(holder, key, { value, enumerable: true, writable: true, configurable: true });
}

export function getSlot(holder: Record<string, unknown> | unknown[], key: string | number): unknown {
  return (holder as Record<string | number, unknown>)[key];
}

function visitAndDescend(slot: Slot, visit: (slot: Slot, value: unknown) => void): void {
  visit(slot, getSlot(slot.holder, slot.key));
  // Read again: visit may have replaced the value.
  walkSchema(getSlot(slot.holder, slot.key), visit);
}
