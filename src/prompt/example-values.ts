import { Ajv, type ValidateFunction } from 'ajv';
import { isObject, ownValue } from '../util/json.ts';
import { patternExample } from './pattern-example.ts';

/**
 * Example values that satisfy their schema: the arguments the modelled transcripts call tools
 * with, and the tool use examples (`input_examples`) of src/pipelines/tool-examples. Built from
 * the schema, with no randomness: a valid `default`, `const`, the first valid `enum` value or
 * `examples` entry, else a value built to the constraints (`<name>` for a string, 1 for a
 * number, the minimum count of items and properties, a string spelled from its `pattern`, a
 * canonical value for a `format`). Every candidate is checked with ajv against the schema it is
 * for, so a default that breaks its own constraints is not used.
 */

/** Plausible arguments for a call: each required parameter, valid against its schema. */
export function exampleArguments(schema: Record<string, unknown>): Record<string, unknown> {
  // Built once per schema object (every modelled call of a tool has the same arguments): a copy each time.
  let args = argumentsBySchema.get(schema);
  if (!args) {
    const props = isObject(schema.properties) ? schema.properties : {};
    const required: unknown[] = Array.isArray(schema.required) ? schema.required : [];
    // From entries: a parameter named `__proto__` or `constructor` is an argument like any other.
    args = Object.fromEntries(required.map((r) => [String(r), exampleValue(String(r), ownValue(props, String(r)), schema)]));
    argumentsBySchema.set(schema, args);
  }
  return JSON.parse(JSON.stringify(args)) as Record<string, unknown>;
}
const argumentsBySchema = new WeakMap<object, Record<string, unknown>>();

/** A value for parameter `name` valid against its schema (`root` resolves local `$ref`s). */
export function exampleValue(name: string, property: unknown, root: unknown = property): unknown {
  return valueFor(property, name, isObject(root) ? root : {}, 0);
}

/**
 * Whether `value` is valid against `schema` (ajv, formats not checked); null when ajv cannot
 * compile the schema alone (a `$ref` outside it, a keyword of another draft).
 */
export function fitsSchema(schema: unknown, value: unknown): boolean | null {
  if (!isObject(schema)) return true;
  const validate = validatorOf(schema);
  return validate ? validate(value) : null;
}

const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false, logger: false });
const validators = new WeakMap<object, ValidateFunction | null>();

function validatorOf(schema: Record<string, unknown>): ValidateFunction | null {
  let v = validators.get(schema);
  if (v === undefined) {
    try {
      v = ajv.compile(schema);
    } catch {
      v = null;
    }
    validators.set(schema, v);
  }
  return v;
}

/** Keywords that say nothing about which values are valid: a schema of these alone (and `type`) needs no ajv check. */
const ANNOTATIONS = new Set([
  'type',
  'description',
  'title',
  'default',
  'examples',
  '$schema',
  '$id',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
]);
const MAX_DEPTH = 12;

function valueFor(schemaIn: unknown, name: string, root: Record<string, unknown>, depth: number): unknown {
  const schema = resolve(schemaIn, root);
  if (!isObject(schema) || depth > MAX_DEPTH) return `<${name}>`;
  // Most parameters carry only a type and an enum: checked here, without compiling a validator for each.
  const simple = Object.keys(schema).every((k) => ANNOTATIONS.has(k) || k === 'enum');
  const inEnum = (v: unknown) => !Array.isArray(schema.enum) || schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(v));
  const fits = (v: unknown) => (simple ? typeFits(schema.type, v) && inEnum(v) : fitsSchema(schema, v) !== false);
  if ('const' in schema) return schema.const;
  if (schema.default !== undefined && fits(schema.default)) return schema.default;
  if (Array.isArray(schema.enum)) {
    const e = schema.enum.find(fits);
    if (e !== undefined || schema.enum.includes(undefined)) return e;
  }
  if (Array.isArray(schema.examples)) {
    const e = schema.examples.find(fits);
    if (e !== undefined) return e;
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    const { [key]: _, ...rest } = schema;
    for (const b of branches) {
      const branch = resolve(b, root);
      const v = valueFor(isObject(branch) ? { ...rest, ...branch } : rest, name, root, depth + 1);
      if (fits(v)) return v;
    }
  }
  if (Array.isArray(schema.allOf)) {
    const { allOf, ...rest } = schema;
    return valueFor(
      allOf.reduce<Record<string, unknown>>((m, b) => merge(m, resolve(b, root)), rest),
      name,
      root,
      depth + 1,
    );
  }
  const candidates = byType(schema, name, root, depth);
  return candidates.find(fits) ?? candidates[0];
}

/** The candidates for a schema's type, best first (the first is used when none fits). */
function byType(schema: Record<string, unknown>, name: string, root: Record<string, unknown>, depth: number): unknown[] {
  const types = Array.isArray(schema.type)
    ? schema.type.map(String)
    : typeof schema.type === 'string'
      ? [schema.type]
      : [inferType(schema)];
  const type = types.find((t) => t !== 'null') ?? 'null';
  if (type === 'null') return [null];
  if (type === 'boolean') return [true, false];
  if (type === 'integer' || type === 'number') return [numberFor(schema, type === 'integer')];
  if (type === 'array') return [arrayFor(schema, name, root, depth)];
  if (type === 'object') return [objectFor(schema, name, root, depth)];
  return stringsFor(schema, name);
}

function inferType(schema: Record<string, unknown>): string {
  if (isObject(schema.properties) || schema.required !== undefined || schema.additionalProperties !== undefined) return 'object';
  if (schema.items !== undefined || schema.minItems !== undefined) return 'array';
  if (['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'].some((k) => Object.hasOwn(schema, k))) return 'number';
  return 'string';
}

function typeFits(type: unknown, v: unknown): boolean {
  const types = Array.isArray(type) ? type : type === undefined ? [] : [type];
  if (!types.length) return true;
  return types.some(
    (t) =>
      (t === 'string' && typeof v === 'string') ||
      (t === 'integer' && Number.isInteger(v)) ||
      (t === 'number' && typeof v === 'number') ||
      (t === 'boolean' && typeof v === 'boolean') ||
      (t === 'null' && v === null) ||
      (t === 'array' && Array.isArray(v)) ||
      (t === 'object' && isObject(v)),
  );
}

/** Canonical examples of the common formats (RFC 3339 dates, a documentation IP range, example.com). */
const FORMATS: Record<string, string> = {
  date: '2025-01-15',
  'date-time': '2025-01-15T09:30:00Z',
  time: '09:30:00Z',
  email: 'user@example.com',
  uri: 'https://example.com',
  url: 'https://example.com',
  'uri-reference': 'https://example.com',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uuid: '00000000-0000-4000-8000-000000000000',
  duration: 'P1D',
};

function stringsFor(schema: Record<string, unknown>, name: string): string[] {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  const sized = (s: string) => (s.length < min ? s + '_'.repeat(min - s.length) : s.slice(0, max));
  const format = typeof schema.format === 'string' ? ownValue(FORMATS, schema.format) : undefined;
  const out = [format, `<${name}>`].filter((s): s is string => s !== undefined).map(sized);
  if (typeof schema.pattern === 'string') {
    // The shortest spelling first, then longer ones until the length limits hold.
    for (const extra of [0, 1, 2, 4, 8, 16, 32, 64]) {
      const s = patternExample(schema.pattern, extra);
      if (s !== null && s.length >= min && s.length <= max) {
        out.push(s);
        break;
      }
    }
  }
  return out;
}

function numberFor(schema: Record<string, unknown>, integer: boolean): number {
  const num = (k: string) => {
    const v = ownValue(schema, k);
    return typeof v === 'number' ? v : undefined;
  };
  // Draft 4 writes exclusive bounds as booleans beside minimum/maximum; later drafts as numbers.
  const exMin = num('exclusiveMinimum') ?? (schema.exclusiveMinimum === true ? num('minimum') : undefined);
  const exMax = num('exclusiveMaximum') ?? (schema.exclusiveMaximum === true ? num('maximum') : undefined);
  const lo = schema.exclusiveMinimum === true ? undefined : num('minimum');
  const hi = schema.exclusiveMaximum === true ? undefined : num('maximum');
  const step = num('multipleOf') ?? (integer ? 1 : undefined);
  const above = (x: number) => (lo === undefined || x >= lo) && (exMin === undefined || x > exMin);
  const below = (x: number) => (hi === undefined || x <= hi) && (exMax === undefined || x < exMax);
  const snap = (x: number) => (step ? Math.ceil(x / step) * step : x);
  let v = snap(1);
  if (!above(v)) v = snap(lo ?? exMin!);
  if (!above(v)) v = snap(exMin! + (step ?? 1));
  if (!below(v)) v = step ? Math.floor((hi ?? exMax!) / step) * step : (hi ?? exMax! - 1);
  if (!below(v) && step) v -= step;
  return v;
}

function arrayFor(schema: Record<string, unknown>, name: string, root: Record<string, unknown>, depth: number): unknown[] {
  const count = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : [];
  const items = Array.from({ length: Math.max(count, 0) }, (_, i) => valueFor(tuple[i] ?? schema.items, name, root, depth + 1));
  // Unique items: a second item equal to the first is told apart by its index (strings) or dropped.
  if (schema.uniqueItems === true)
    return items.map((v, i) => (i > 0 && typeof v === 'string' ? `${v}${i + 1}` : typeof v === 'number' ? v + i : v));
  return items;
}

function objectFor(schema: Record<string, unknown>, name: string, root: Record<string, unknown>, depth: number): Record<string, unknown> {
  const props = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
  const out: [string, unknown][] = required.map((r) => [r, valueFor(ownValue(props, r), r, root, depth + 1)]);
  const wanted = typeof schema.minProperties === 'number' ? schema.minProperties : 0;
  for (const key of Object.keys(props)) {
    if (out.length >= wanted) break;
    if (!required.includes(key)) out.push([key, valueFor(ownValue(props, key), key, root, depth + 1)]);
  }
  const extra = isObject(schema.additionalProperties) ? schema.additionalProperties : schema.additionalProperties === false ? null : {};
  for (let i = 1; out.length < wanted && extra; i++) out.push([`${name}_${i}`, valueFor(extra, `${name}_${i}`, root, depth + 1)]);
  return Object.fromEntries(out);
}

/** A local `$ref` (`#/$defs/x`, `#/definitions/x`) resolved against the root schema; anything else as it is. */
function resolve(schema: unknown, root: Record<string, unknown>): unknown {
  let s = schema;
  for (let hops = 0; isObject(s) && typeof s.$ref === 'string' && s.$ref.startsWith('#') && hops < 8; hops++) {
    const { $ref, ...rest } = s;
    const target = ($ref as string)
      .slice(1)
      .split('/')
      .filter(Boolean)
      .reduce<unknown>((node, part) => (isObject(node) ? ownValue(node, part.replace(/~1/g, '/').replace(/~0/g, '~')) : undefined), root);
    if (!isObject(target)) return rest;
    s = { ...target, ...rest };
  }
  return s;
}

function merge(a: Record<string, unknown>, b: unknown): Record<string, unknown> {
  if (!isObject(b)) return a;
  const props =
    isObject(a.properties) || isObject(b.properties) ? { properties: { ...(a.properties as object), ...(b.properties as object) } } : {};
  const required =
    Array.isArray(a.required) || Array.isArray(b.required)
      ? { required: [...new Set([...((a.required as unknown[]) ?? []), ...((b.required as unknown[]) ?? [])])] }
      : {};
  return { ...a, ...b, ...props, ...required };
}
