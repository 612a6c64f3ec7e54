import type { JsonSchema } from '../catalog/types.ts';
import { isObject, ownValue } from '../util/json.ts';

/**
 * The harmony rendering of function tools (OpenAI's published format for gpt-oss, "designed to
 * mimic the OpenAI Responses API"): a TypeScript-like `namespace functions` in the developer
 * message. A port of json_schema_to_typescript and template_tools_section of the harmony
 * renderer (openai/harmony, src/encoding.rs), keyword for keyword, including its quirks (an
 * object's description printed twice, anyOf/allOf/$ref rendered as `any`). The published
 * example is reproduced byte for byte by test/hosts/openai-responses.test.ts.
 */

export interface HarmonyFunction {
  name: string;
  description?: string;
  /** JSON Schema of the arguments; absent: `() => any`. */
  parameters?: JsonSchema;
}

/** What the tools add to the developer message, before the functions (after its instructions and "\n\n"). */
export const HARMONY_TOOLS_HEADER = '# Tools\n\n## functions\n\nnamespace functions {\n\n';
export const HARMONY_TOOLS_FOOTER = '} // namespace functions';

const get = (schema: unknown, key: string): unknown => (isObject(schema) ? ownValue(schema, key) : undefined);
const has = (schema: unknown, key: string): boolean => isObject(schema) && Object.hasOwn(schema, key);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function isEnum(schema: unknown): boolean {
  const e = get(schema, 'enum');
  return Array.isArray(e) && e.length > 0;
}

/** serde_json's Display of a value: compact JSON. */
const json = (v: unknown): string => JSON.stringify(v);

/** Rust's str::lines(): split on \n, a trailing \r dropped, no empty last line. */
export function rustLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

function nullable(variant: unknown, typeStr: string): string {
  return get(variant, 'nullable') === true && !typeStr.includes('null') ? `${typeStr} | null` : typeStr;
}

/** The trailing comment parts of a oneOf variant: its description, its default. */
function variantDefault(variant: unknown): string | undefined {
  if (!has(variant, 'default')) return undefined;
  const d = get(variant, 'default');
  return typeof d === 'string' && !isEnum(variant) ? `default: "${d}"` : `default: ${json(d)}`;
}

/** json_schema_to_typescript of the harmony renderer. */
export function schemaToTypeScript(schema: unknown, indent: string): string {
  const oneOf = get(schema, 'oneOf');
  if (Array.isArray(oneOf)) {
    let out = '';
    let first = true;
    for (const variant of oneOf) {
      if (!first) out += `\n${indent} | `;
      else {
        out += `\n${indent} | `;
        first = false;
      }
      out += nullable(variant, schemaToTypeScript(variant, `${indent}   `));
      const trailing: string[] = [];
      const desc = str(get(variant, 'description'));
      if (desc !== undefined) trailing.push(desc);
      const def = variantDefault(variant);
      if (def !== undefined) trailing.push(def);
      if (trailing.length) out += ` // ${trailing.join(' ')}`;
    }
    return out;
  }
  const type = get(schema, 'type');
  if (Array.isArray(type)) {
    const names = type.filter((t): t is string => typeof t === 'string').map((t) => (t === 'integer' ? 'number' : t));
    if (names.length) return names.join(' | ');
  }
  if (typeof type === 'string') {
    switch (type) {
      case 'object':
        return objectType(schema as Record<string, unknown>, indent);
      case 'string': {
        const e = get(schema, 'enum');
        if (Array.isArray(e)) {
          const values = e.filter((v): v is string => typeof v === 'string').map((v) => `"${v}"`);
          if (values.length) return values.join(' | ');
        }
        return 'string';
      }
      case 'number':
      case 'integer':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'array':
        return has(schema, 'items') ? `${schemaToTypeScript(get(schema, 'items'), indent)}[]` : 'Array<any>';
      default:
        return 'any';
    }
  }
  return 'any';
}

function objectType(schema: Record<string, unknown>, indent: string): string {
  let out = '';
  const desc = str(schema.description);
  if (desc !== undefined) out += `${indent}// ${desc}\n`;
  out += '{\n';
  const props = schema.properties;
  if (isObject(props)) {
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
    const mark = (key: string) => (required.has(key) ? '' : '?');
    for (const [key, val] of Object.entries(props)) {
      const title = str(get(val, 'title'));
      if (title !== undefined) out += `${indent}// ${title}\n${indent}//\n`;
      if (!has(val, 'oneOf')) {
        const d = str(get(val, 'description'));
        if (d !== undefined) out += `${indent}// ${d}\n`;
      }
      const examples = get(val, 'examples');
      if (Array.isArray(examples) && examples.length) {
        out += `${indent}// Examples:\n`;
        for (const ex of examples) if (typeof ex === 'string') out += `${indent}// - "${ex}"\n`;
      }
      const oneOf = get(val, 'oneOf');
      if (Array.isArray(oneOf)) {
        out += oneOfProperty(key, val, oneOf, indent, mark(key));
        continue;
      }
      out += `${indent}${key}${mark(key)}: `;
      out += nullable(val, schemaToTypeScript(val, `${indent}    `));
      out += ',';
      if (!has(val, 'oneOf') && has(val, 'default')) {
        const d = get(val, 'default');
        if (typeof d === 'string' && !isEnum(val)) out += ` // default: "${d}"`;
        else if (typeof d === 'string') out += ` // default: ${d}`;
        else out += ` // default: ${json(d)}`;
      }
      out += '\n';
    }
  }
  out += `${indent}}`;
  return out;
}

/** A property whose schema is a oneOf: comments above, then one `| variant` line each. */
function oneOfProperty(key: string, val: unknown, variants: unknown[], indent: string, mark: string): string {
  let out = '';
  const propertyDesc = str(get(val, 'description'));
  const firstDesc = str(get(variants[0], 'description'));
  const skip = propertyDesc !== undefined && firstDesc !== undefined && propertyDesc === firstDesc;
  let renderedAbove = false;
  if (!skip && propertyDesc !== undefined) {
    out += `${indent}// ${propertyDesc}\n`;
    renderedAbove = true;
  }
  if (has(val, 'default')) {
    const d = get(val, 'default');
    if (typeof d === 'string' && !isEnum(val)) out += `${indent}// default: "${d}"\n`;
    else if (typeof d === 'string') out += `${indent}// default: ${d}\n`;
    else out += `${indent}// default: ${json(d)}\n`;
  }
  out += `${indent}${key}${mark}:\n`;
  variants.forEach((variant, i) => {
    out += `${indent} | `;
    out += nullable(variant, schemaToTypeScript(variant, `${indent}   `));
    const trailing: string[] = [];
    if (!(i === 0 && renderedAbove)) {
      const d = str(get(variant, 'description'));
      if (d !== undefined && d !== propertyDesc) trailing.push(d);
    }
    const def = get(variant, 'default');
    if (has(variant, 'default')) {
      if (typeof def === 'string' && !isEnum(variant)) trailing.push(`default: "${def}"`);
      else if (typeof def === 'string') trailing.push(`default: ${def}`);
      else trailing.push(`default: ${json(def)}`);
    }
    if (trailing.length) out += ` // ${trailing.join(' ')}`;
    out += '\n';
  });
  out += `${indent},\n`;
  return out;
}

/**
 * One function's part of the namespace: its description lines as comments, its type line, and
 * the empty line after it. It starts with a non-space character and ends with a newline, so a
 * whole namespace is counted exactly as the sum of its parts (src/prompt/sections.ts).
 */
export function harmonyFunctionText(fn: HarmonyFunction): string {
  const comments = rustLines(fn.description ?? '').map((line) => `// ${line}\n`);
  const signature = fn.parameters !== undefined ? `(_: ${schemaToTypeScript(fn.parameters, '')})` : '()';
  return `${comments.join('')}type ${fn.name} = ${signature} => any;\n\n`;
}

/** The `# Tools` section of the developer message for these functions, as template_tools_section writes it. */
export function harmonyToolsSection(functions: readonly HarmonyFunction[]): string {
  return `${HARMONY_TOOLS_HEADER}${functions.map(harmonyFunctionText).join('')}${HARMONY_TOOLS_FOOTER}`;
}
