import type { KeyType } from './types.ts';

/** Does a JSON value conform to a JSON Schema type identifier (§4.1 key_type)? */
export function conformsTo(value: unknown, type: KeyType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
}

/** §4.3: the value of "other" MUST be a string or an array of strings. */
export function isOtherValue(value: unknown): boolean {
  return typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'));
}
