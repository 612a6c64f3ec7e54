import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type JSONSchemaType } from 'ajv';
import { InputError } from './input-error.ts';

/**
 * The one reader of every JSON file the harness writes and reads back (shard.json, timings.json,
 * the folder lock, the saved reranker; run.json and the tables through src/results/format.ts): each has a
 * format with its JSON Schema, typed against the TypeScript type it is read as (ajv's
 * JSONSchemaType: a schema that drifts from the type does not compile), and where the file
 * carries a version, the version is checked first and named as such. A file that does not fit
 * is refused in one line naming the file and the JSON path, never read with a cast.
 */
export interface JsonFileFormat<T> {
  /** What the file is, for messages: `the shard manifest (shard.json)`. */
  what: string;
  schema: JSONSchemaType<T>;
  /** The field that carries the file's version and the value this tooltax reads. */
  version?: { field: string; value: string | number };
}

/** The file's content, checked against its format; a one-line InputError when it is missing, not JSON or does not fit. */
export function readJsonFile<T>(file: string, format: JsonFileFormat<T>): T {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new InputError(file, '$', format.what, (err as Error).message);
  }
  return checkedJson(data, file, format);
}

/** The file's content when it is there and fits its format, else undefined (a hint such as the previous run's timings). */
export function readJsonFileIfValid<T>(file: string, format: JsonFileFormat<T>): T | undefined {
  try {
    return readJsonFile(file, format);
  } catch {
    return undefined;
  }
}

/**
 * One Ajv for every format, made on first use: it keeps each schema's compiled validator, by the
 * schema object (the formats are constants), as ajv's documentation advises. A new Ajv per read
 * compiled the schema again each time: more than checking a saved reranker's thousands of entries.
 */
let ajv: Ajv | undefined;

/** Parsed JSON checked against a format: its version first, then its schema. */
function checkedJson<T>(data: unknown, file: string, format: JsonFileFormat<T>): T {
  if (format.version) {
    const { field, value } = format.version;
    const found = typeof data === 'object' && data !== null ? new Map(Object.entries(data)).get(field) : undefined;
    if (found !== value) throw new InputError(file, `$.${field}`, JSON.stringify(value), JSON.stringify(found ?? null));
  }
  const validate = (ajv ??= new Ajv({ allErrors: false, strict: true, allowUnionTypes: true })).compile(format.schema);
  if (!validate(data)) throw schemaError(file, validate.errors, format.what);
  return data;
}

/** The first schema error as one line: the file, the JSON path, what was expected and what was found. */
export function schemaError(file: string, errors: ErrorObject[] | null | undefined, what: string): InputError {
  const e = errors?.[0];
  if (!e) return new InputError(file, '$', what);
  const path = `$${e.instancePath.replace(/\/(\d+)(?=\/|$)/g, '[$1]').replace(/\/([^/]+)/g, '.$1')}`;
  const detail =
    e.keyword === 'required'
      ? `no "${(e.params as { missingProperty: string }).missingProperty}"`
      : e.keyword === 'additionalProperties'
        ? `an unknown field "${(e.params as { additionalProperty: string }).additionalProperty}"`
        : `a value that ${e.message ?? 'does not match'}`;
  return new InputError(file, path, what, detail);
}
