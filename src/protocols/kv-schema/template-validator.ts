import { KEY_TYPES, type SchemaTemplate } from './types.ts';
import { conformsTo, isOtherValue } from './value-type.ts';

/**
 * Checks a schema template against §4.1-§4.3: required members, snake_case unique key names,
 * JSON Schema types, a semantic description on every key, and the reserved "other" key
 * (optional, string or array of strings).
 */

export interface TemplateIssue {
  level: 'error' | 'warning';
  path: string;
  message: string;
}

const SNAKE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

export function validateTemplate(t: unknown): TemplateIssue[] {
  const out: TemplateIssue[] = [];
  const err = (path: string, message: string) => out.push({ level: 'error', path, message });
  if (typeof t !== 'object' || t === null || Array.isArray(t))
    return [{ level: 'error', path: '', message: 'a schema template is a JSON object (§4.1)' }];
  const o = t as Partial<SchemaTemplate>;
  if (typeof o.schema_id !== 'string' || o.schema_id === '') err('schema_id', 'REQUIRED non-empty string (§4.1)');
  if (typeof o.scenario !== 'string' || o.scenario === '') err('scenario', 'REQUIRED non-empty string (§4.1)');
  if (!Array.isArray(o.keys)) {
    err('keys', 'REQUIRED array of key definitions (§4.1)');
    return out;
  }
  const names = new Set<string>();
  o.keys.forEach((k, i) => {
    const p = `keys[${i}]`;
    if (typeof k.key_name !== 'string' || !SNAKE.test(k.key_name)) err(`${p}.key_name`, 'REQUIRED snake_case string (§4.1)');
    else if (names.has(k.key_name)) err(`${p}.key_name`, `"${k.key_name}" is not unique (§4.1: MUST be unique)`);
    else names.add(k.key_name);
    if (!(KEY_TYPES as readonly string[]).includes(k.key_type))
      err(`${p}.key_type`, `REQUIRED JSON Schema type, one of ${KEY_TYPES.join(', ')} (§4.1)`);
    if (typeof k.required !== 'boolean') err(`${p}.required`, 'REQUIRED boolean (§4.1)');
    if (typeof k.semantic_description !== 'string' || k.semantic_description.trim() === '')
      err(`${p}.semantic_description`, 'REQUIRED non-empty string (§4.1, §4.2)');
    if (
      k.default_value !== undefined &&
      k.default_value !== null &&
      (KEY_TYPES as readonly string[]).includes(k.key_type) &&
      !conformsTo(k.default_value, k.key_type)
    ) {
      err(`${p}.default_value`, `does not conform to key_type ${k.key_type}`);
    }
    if (k.key_name === 'other') {
      if (k.required !== false) err(`${p}.required`, '"other" MUST be defined as OPTIONAL (§4.3)');
      if (k.key_type !== 'string' && k.key_type !== 'array') err(`${p}.key_type`, '"other" holds a string or an array of strings (§4.3)');
      if (k.default_value !== undefined && k.default_value !== null && !isOtherValue(k.default_value))
        err(`${p}.default_value`, 'must be a string or an array of strings (§4.3)');
    }
  });
  if (!names.has('other'))
    out.push({ level: 'warning', path: 'keys', message: 'no "other" key: it is reserved within every schema template (§4.3)' });
  return out;
}
