/**
 * Bad input from a user file. The message names the file, the JSON path inside it and what
 * was expected, so the user can fix it without reading our code.
 */
export class InputError extends Error {
  constructor(
    readonly file: string,
    readonly path: string,
    readonly expected: string,
    readonly found?: string,
  ) {
    super(`${file}: at ${path || '(root)'}: expected ${expected}${found === undefined ? '' : `, found ${found}`}`);
    this.name = 'InputError';
  }
}

/** A short description of a JSON value for error messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

/**
 * The reason of a JSON.parse error without the quoted text V8 puts in it (`"root:x:0:0"...`):
 * a catalog folder may hold a symlink to a private file, whose first bytes must not reach a
 * terminal or CI log.
 */
export function jsonParseReason(err: unknown): string {
  return (err as Error).message.replace(/, ".*"(\.\.\.)? is not valid JSON$/s, ' (not valid JSON)');
}
