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

/**
 * A short description of a JSON value for error messages: its kind and size, never its text.
 * An input file may be a symlink to a private file (a key file, a credentials JSON), and what
 * it holds must not reach a terminal or a CI log; the file and the JSON path say where to look.
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'string') return `a string (${value.length.toLocaleString('en-US')} characters)`;
  if (typeof value === 'object') return `an object with ${plural(Object.keys(value).length, 'key')}`;
  if (typeof value === 'number') return 'a number';
  return `${typeof value} ${String(value)}`;
}

/** `1 key`, `3 keys`. */
function plural(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * The reason of a JSON.parse error without the text V8 quotes from the input (`"root:x:0:0"...`,
 * `..."key": sk-"...`): an input may be a symlink to a private file, whose bytes must not reach
 * a terminal or CI log. V8's position, when it gives one, is kept.
 */
export function jsonParseReason(err: unknown): string {
  return (err as Error).message.replace(/, (\.\.\.)?".*"(\.\.\.)? is not valid JSON$/s, ' (not valid JSON)');
}
