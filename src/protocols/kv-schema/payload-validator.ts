import type { JsonValue, SchemaTemplate } from './types.ts';
import { conformsTo, isOtherValue } from './value-type.ts';
import { ownValue } from '../../util/json.ts';

/**
 * Server-side payload validation (§3.1 S(2), §3.2 step 4-5, §4.3): the schema_id matches,
 * every REQUIRED key is present, values conform to their key_type, "other" is a string or an
 * array of strings and is always accepted whatever it says, keys outside the schema are
 * refused — except withdrawn patch keys, accepted with a warning during the backward-
 * compatibility window (§6.2.3 Withdrawal). Defaults fill absent optional keys (§4.1).
 */

export interface PayloadIssue {
  key: string;
  rule:
    | 'schema-mismatch'
    | 'not-an-object'
    | 'required-missing'
    | 'type-mismatch'
    | 'provisional-type-mismatch'
    | 'other-type'
    | 'unknown-key'
    | 'withdrawn-key';
  message: string;
}

export interface PayloadValidation {
  valid: boolean;
  errors: PayloadIssue[];
  warnings: PayloadIssue[];
  /** The payload with defaults applied (only when valid). */
  effective?: Record<string, unknown>;
}

export interface PayloadValidationOptions {
  /** Withdrawn keys still inside their backward-compatibility window. */
  legacyKeys?: ReadonlySet<string>;
  /**
   * Experimental or deprecated patch keys: a wrong type there is a warning, not a rejection, so
   * the server can measure value_type_correctness (§6.2.3) instead of refusing the request.
   */
  provisionalKeys?: ReadonlySet<string>;
}

export function validatePayload(template: SchemaTemplate, message: unknown, opts: PayloadValidationOptions = {}): PayloadValidation {
  const errors: PayloadIssue[] = [];
  const warnings: PayloadIssue[] = [];
  const m = message as { schema_id?: unknown; payload?: unknown } | null;
  if (typeof m !== 'object' || m === null)
    return { valid: false, errors: [{ key: '', rule: 'not-an-object', message: 'expected {"schema_id", "payload"}' }], warnings };
  if (m.schema_id !== template.schema_id) {
    errors.push({
      key: 'schema_id',
      rule: 'schema-mismatch',
      message: `schema_id ${JSON.stringify(m.schema_id)} is not ${template.schema_id}`,
    });
  }
  const payload = m.payload;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    errors.push({ key: 'payload', rule: 'not-an-object', message: 'payload must be a JSON object' });
    return { valid: false, errors, warnings };
  }
  const p = payload as Record<string, unknown>;
  const defs = new Map(template.keys.map((k) => [k.key_name, k]));
  for (const k of template.keys) {
    if (k.required && ownValue(p, k.key_name) === undefined)
      errors.push({ key: k.key_name, rule: 'required-missing', message: `REQUIRED key ${k.key_name} is missing` });
  }
  for (const [key, value] of Object.entries(p)) {
    const def = defs.get(key);
    if (!def) {
      if (opts.legacyKeys?.has(key))
        warnings.push({ key, rule: 'withdrawn-key', message: `${key} is withdrawn; accepted during the backward-compatibility window` });
      else errors.push({ key, rule: 'unknown-key', message: `${key} is not in ${template.schema_id}` });
      continue;
    }
    if (key === 'other') {
      if (!isOtherValue(value)) errors.push({ key, rule: 'other-type', message: '"other" must be a string or an array of strings' });
      continue;
    }
    if (!conformsTo(value, def.key_type)) {
      const message = `${key} must be ${def.key_type}, got ${Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value}`;
      if (opts.provisionalKeys?.has(key)) warnings.push({ key, rule: 'provisional-type-mismatch', message });
      else errors.push({ key, rule: 'type-mismatch', message });
    }
  }
  if (errors.length > 0) return { valid: false, errors, warnings };
  const effective = Object.fromEntries([
    ...template.keys.flatMap((k): [string, unknown][] => {
      const value = ownValue(p, k.key_name);
      if (value !== undefined) return [[k.key_name, value]];
      return k.default_value !== undefined && k.default_value !== null ? [[k.key_name, k.default_value as JsonValue]] : [];
    }),
    ...Object.entries(p).filter(([key]) => !defs.has(key)),
  ]);
  return { valid: true, errors, warnings, effective };
}
