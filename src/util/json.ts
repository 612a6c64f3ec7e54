export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * `record[key]` when the record holds `key` itself, else undefined: a plain object looked up by
 * text from a catalog, a task or a message must never answer with a member of Object.prototype
 * ("constructor", "toString"). The lint rule tooltax/no-inherited-lookup requires this guard
 * (or a Map) for every such lookup in src/.
 */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** `record[key] = value` as an own data property: a `__proto__` key is stored, not taken as the prototype. */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}
