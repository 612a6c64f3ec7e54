import { serializeToolDefinition, type McpTool } from '../catalog/types.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import { ownValue, setOwn } from '../util/json.ts';

/**
 * Where the tokens of one tool definition go. The definition is measured as tools/list
 * carries it (compact JSON, `JSON.stringify(tool)`), and every token of that text is given
 * to exactly one part, so the parts add up to the total by construction:
 *
 * - a field part (`name`, `description`, `inputSchema`, `outputSchema`, `annotations`, and
 *   `other` for every other field: `title`, `_meta`, `icons`, `execution`, ...) gets the tokens
 *   that START inside that field's text `"key":value`;
 * - `framing` gets the tokens that start on the object's own punctuation: the opening `{`,
 *   the `,` between fields and the closing `}`.
 *
 * BPE tokens cross field boundaries (`"},"` and `,"` are single tokens in cl100k), so a
 * field's share is not the token count of its text measured alone; the start rule is what
 * makes the split exact. A token that only covers part of a multi-byte character is kept
 * with the token(s) completing the character.
 */
export const PARTS = ['name', 'description', 'inputSchema', 'outputSchema', 'annotations', 'other', 'framing'] as const;
export type Part = (typeof PARTS)[number];
export type PartTokens = Record<Part, number>;

const FIELD_PARTS: readonly Part[] = ['name', 'description', 'inputSchema', 'outputSchema', 'annotations'];

export interface DefinitionSplit {
  total: number;
  parts: PartTokens;
  /** Fields counted in `other`, in definition order. */
  otherFields: string[];
  /** The tokens of each top-level field by its name (the framing in none), by the same start rule. */
  byField: Record<string, number>;
}

export function emptyParts(): PartTokens {
  return { name: 0, description: 0, inputSchema: 0, outputSchema: 0, annotations: 0, other: 0, framing: 0 };
}

interface Span {
  part: Part;
  key: string;
  start: number;
  end: number;
}

/** The compact JSON of a definition and the character span of every top-level field in it. */
export function fieldSpans(def: McpTool): { text: string; spans: Span[]; otherFields: string[] } {
  let text = '{';
  const spans: Span[] = [];
  const otherFields: string[] = [];
  for (const [key, value] of Object.entries(def)) {
    const json = JSON.stringify(value);
    if (json === undefined) continue; // JSON.stringify drops undefined, functions, symbols
    if (spans.length) text += ',';
    const start = text.length;
    text += `${JSON.stringify(key)}:${json}`;
    const part = (FIELD_PARTS as readonly string[]).includes(key) ? (key as Part) : 'other';
    if (part === 'other') otherFields.push(key);
    spans.push({ part, key, start, end: text.length });
  }
  text += '}';
  if (text !== serializeToolDefinition(def)) throw new Error(`tool "${def.name}": its compact JSON could not be split into fields`);
  return { text, spans, otherFields };
}

export function splitDefinition(def: McpTool, tokens: TokenCounter): DefinitionSplit {
  const { text, spans, otherFields } = fieldSpans(def);
  const parts = emptyParts();
  const byField: Record<string, number> = Object.create(null) as Record<string, number>;
  const give = (pos: number, n: number) => {
    const span = spans.find((s) => pos >= s.start && pos < s.end);
    parts[span?.part ?? 'framing'] += n;
    if (span) setOwn(byField, span.key, (ownValue(byField, span.key) ?? 0) + n);
  };
  const ids = tokens.encode(text);
  let pos = 0;
  let groupStart = 0;
  for (let i = 0; i < ids.length; i++) {
    const piece = tokens.decode(ids.slice(groupStart, i + 1));
    if (text.startsWith(piece, pos)) {
      give(pos, i + 1 - groupStart);
      pos += piece.length;
      groupStart = i + 1;
    }
  }
  // Never expected (the tokens decode back to the text); if the text could not be followed,
  // the rest is given to where it starts, so the sum stays exact.
  if (groupStart < ids.length) give(pos, ids.length - groupStart);
  return { total: ids.length, parts, otherFields, byField };
}
