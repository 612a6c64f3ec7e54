import type { McpTool } from '../catalog/types.ts';
import { TOKENIZERS, type TokenizerName } from '../tokens/counter.ts';
import { describeValue, InputError, jsonParseReason } from '../util/input-error.ts';
import { isObject, setOwn } from '../util/json.ts';
import { DEFAULT_LIMITS, readInputFile, type InputLimits } from '../util/limits.ts';
import type { CustomHostFile, HostProfile } from './types.ts';

/**
 * custom: a host described in a small JSON file, for a gateway or client the built-in profiles
 * do not cover. Each tool is sent as the compact JSON of the fields the file lists (in its
 * order, renamed as it says), plus fixed tokens per tool and per request:
 *
 *   {
 *     "name": "my-gateway",
 *     "fields": ["name", "description", "inputSchema"],
 *     "rename": { "inputSchema": "input_schema" },
 *     "perToolTokens": 0,
 *     "perRequestTokens": 346,
 *     "tokenizer": "cl100k_base",
 *     "source": "where these figures come from"
 *   }
 *
 * The file is untrusted input: its size is bounded by --max-file-bytes, every value is checked,
 * and each mistake is one line naming the file, the JSON path and what was expected.
 */

const KEYS = ['name', 'fields', 'rename', 'perToolTokens', 'perRequestTokens', 'tokenizer', 'source'] as const;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** A field or key name: printable, no control characters, at most 64 characters. */
const FIELD = /^[^\p{Cc}]{1,64}$/u;
const MAX_FIELDS = 64;
const MAX_PER_TOOL = 100_000;
const MAX_PER_REQUEST = 10_000_000;
const MAX_SOURCE_CHARS = 500;

function integerIn(file: string, path: string, v: unknown, max: number): number {
  if (v === undefined) return 0;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0 || v > max)
    throw new InputError(file, path, `a whole number of tokens from 0 to ${max.toLocaleString('en-US')}`, describeValue(v));
  return v;
}

/** Reads and validates a custom host file (see above). */
export function readCustomHostFile(file: string, limits: InputLimits = DEFAULT_LIMITS): CustomHostFile {
  const text = readInputFile(file, limits);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new InputError(file, '', 'a JSON object describing a host', jsonParseReason(err));
  }
  return validateCustomHost(file, raw);
}

function validateCustomHost(file: string, raw: unknown): CustomHostFile {
  if (!isObject(raw)) throw new InputError(file, '', 'a JSON object describing a host', describeValue(raw));
  for (const key of Object.keys(raw))
    if (!(KEYS as readonly string[]).includes(key))
      throw new InputError(file, key, `one of the keys ${KEYS.join(', ')}`, `"${key.slice(0, 40)}"`);
  if (typeof raw.name !== 'string' || !NAME.test(raw.name))
    throw new InputError(file, 'name', 'a name of 1 to 64 letters, digits, ".", "_" or "-"', describeValue(raw.name));
  const fields = raw.fields;
  if (!Array.isArray(fields) || fields.length === 0 || fields.length > MAX_FIELDS)
    throw new InputError(
      file,
      'fields',
      `a list of 1 to ${MAX_FIELDS} tools/list field names (e.g. ["name", "description", "inputSchema"])`,
      describeValue(fields),
    );
  fields.forEach((f, i) => {
    if (typeof f !== 'string' || !FIELD.test(f))
      throw new InputError(file, `fields[${i}]`, 'a field name of 1 to 64 printable characters', describeValue(f));
    if (fields.indexOf(f) !== i) throw new InputError(file, `fields[${i}]`, 'each field once', `"${f}" again`);
  });
  // No prototype, as below: `__proto__` is a key like any other.
  const rename = Object.create(null) as Record<string, string>;
  if (raw.rename !== undefined) {
    if (!isObject(raw.rename)) throw new InputError(file, 'rename', 'an object of field → name sent', describeValue(raw.rename));
    for (const [from, to] of Object.entries(raw.rename)) {
      if (!fields.includes(from))
        throw new InputError(file, `rename.${from.slice(0, 40)}`, 'a field listed in "fields"', `"${from.slice(0, 40)}"`);
      if (typeof to !== 'string' || !FIELD.test(to))
        throw new InputError(file, `rename.${from}`, 'a name of 1 to 64 printable characters', describeValue(to));
      setOwn(rename, from, to);
    }
    const sent = (fields as string[]).map((f) => sentName(f, rename));
    const twice = sent.find((s, i) => sent.indexOf(s) !== i);
    if (twice !== undefined)
      throw new InputError(file, 'rename', 'names that differ from each other and from the fields kept', `"${twice}" twice`);
  }
  let tokenizer: TokenizerName | undefined;
  if (raw.tokenizer !== undefined) {
    const named = TOKENIZERS.find((t) => t === raw.tokenizer);
    if (!named) throw new InputError(file, 'tokenizer', `one of ${TOKENIZERS.join(', ')}`, describeValue(raw.tokenizer));
    tokenizer = named;
  }
  if (raw.source !== undefined && (typeof raw.source !== 'string' || raw.source.length > MAX_SOURCE_CHARS))
    throw new InputError(file, 'source', `a note of at most ${MAX_SOURCE_CHARS} characters`, describeValue(raw.source));
  return {
    file,
    name: raw.name,
    ...(tokenizer ? { tokenizer } : {}),
    fields: fields as string[],
    rename,
    perToolTokens: integerIn(file, 'perToolTokens', raw.perToolTokens, MAX_PER_TOOL),
    perRequestTokens: integerIn(file, 'perRequestTokens', raw.perRequestTokens, MAX_PER_REQUEST),
    ...(typeof raw.source === 'string' ? { source: raw.source } : {}),
  };
}

/** The name a field is sent under (own keys only: a field named like an Object.prototype member is data). */
function sentName(field: string, rename: Record<string, string>): string {
  return Object.hasOwn(rename, field) ? rename[field]! : field;
}

/** The object a custom host sends for one tool: its listed fields, in order, renamed. */
function customToolObject(d: McpTool, spec: Pick<CustomHostFile, 'fields' | 'rename'>): Record<string, unknown> {
  // No prototype: a field named `__proto__` is an ordinary key here, as it is in the JSON.
  const out = Object.create(null) as Record<string, unknown>;
  for (const f of spec.fields) if (Object.hasOwn(d, f)) setOwn(out, sentName(f, spec.rename), d[f]);
  return out;
}

export function customProfile(spec: CustomHostFile, runTokenizer: TokenizerName): HostProfile {
  const tokenizer = spec.tokenizer ?? runTokenizer;
  return {
    id: 'custom',
    label: `custom (${spec.name})`,
    tokenizer,
    tokenizerNote: spec.tokenizer ? `${tokenizer}, as ${spec.file} says` : `${tokenizer}, the run's --tokenizer`,
    keepsPromptText: false,
    sends: spec.fields,
    toolTokens: (d, tokens) => tokens.count(JSON.stringify(customToolObject(d, spec))) + spec.perToolTokens,
    requestTokens: () => spec.perRequestTokens,
    requestTokensNote: `perRequestTokens (${spec.perRequestTokens}) of ${spec.file}`,
    render: (definitions) => definitions.map((d) => JSON.stringify(customToolObject(d, spec))).join('\n'),
    messageFraming: () => 0,
    sources: [{ title: `custom host file ${spec.file}`, url: spec.file, what: spec.source ?? 'the figures of the file (no source given)' }],
    knownError: 'As good as the file: its fields, renames and fixed token counts are the user’s.',
  };
}
