import { InputError } from './input-error.ts';
import { didYouMean } from './nearest.ts';

/** A key as an error quotes it: JSON-quoted and cut, so a long or odd key stays one short line. */
export function quoteKey(key: string): string {
  return JSON.stringify(cut(key));
}

const cut = (key: string) => (key.length > 60 ? `${key.slice(0, 59)}…` : key);

/**
 * Refuses the first key of `value` that is not one of `known`, naming its JSON path and the
 * nearest known key: a misspelt key (`tool` for `tools`) is a mistake, never a field quietly
 * left out. `what` names the object for the message (`a turn`).
 */
export function checkKnownKeys(file: string, path: string, value: Record<string, unknown>, known: readonly string[], what: string): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    throw new InputError(
      file,
      `${path}.${cut(key)}`,
      `a key of ${what} (${known.join(', ')})`,
      `the unknown key ${quoteKey(key)}${didYouMean(key, known, 1, (k) => `"${k}"`)}`,
    );
  }
}

/**
 * ` (did you mean "x"?)` for a required key that is missing when a present key is within a few
 * edits of it (`input_schema` for `inputSchema`), else nothing.
 */
export function misspeltKeyHint(value: Record<string, unknown>, missing: string): string {
  const near = Object.keys(value).filter((k) => k !== missing && didYouMean(k, [missing]) !== '');
  return near.length ? ` (found ${quoteKey(near[0]!)}: did you mean "${missing}"?)` : '';
}
