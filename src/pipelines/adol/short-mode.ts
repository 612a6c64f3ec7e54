import type { McpTool } from '../../catalog/types.ts';

/**
 * ADOL mechanism B: adaptive optional fields (draft §3.2). The server's tool configuration
 * carries an `optional` set; on a short `tools/list` (`tool/list --short`) the server omits
 * it and returns a concise definition.
 *
 * The optional set used here (one config for every tool; a server could set it per tool):
 * - tool-level fields `title`, `outputSchema`, `annotations`, `examples`, `_meta`,
 *   `execution`, `icons` are omitted;
 * - the description is a "long description" when it has more than one sentence, and is cut
 *   to its first sentence: the text up to the first `.`, `!` or `?` followed by whitespace,
 *   or up to the first line break, whichever comes first (trimmed);
 * - everything else is kept: `name`, the first sentence of `description`, and `inputSchema`
 *   exactly as published (property descriptions included: the model needs them to call the
 *   tool), plus any field not listed above.
 */
export interface ShortModeConfig {
  /** Tool-level fields the short list omits. */
  omitFields: readonly string[];
  /** `first-sentence` cuts a long description to its first sentence; `keep` leaves it. */
  description: 'first-sentence' | 'keep';
}

export const DEFAULT_SHORT_MODE: ShortModeConfig = {
  omitFields: ['title', 'outputSchema', 'annotations', 'examples', '_meta', 'execution', 'icons'],
  description: 'first-sentence',
};

/** The first sentence of a text (see the rule above). */
export function firstSentence(text: string): string {
  const trimmed = text.trim();
  const m = /[.!?](?=\s)|\r?\n/.exec(trimmed);
  if (!m) return trimmed;
  const end = m[0].startsWith('\n') || m[0].startsWith('\r') ? m.index : m.index + 1;
  const first = trimmed.slice(0, end).trim();
  return first || trimmed;
}

/** The short-list definition of one tool (a new object; the input is not modified). */
export function shortDefinition(def: McpTool, config: ShortModeConfig = DEFAULT_SHORT_MODE): McpTool {
  // Built from entries: a `__proto__` key of the tool stays an own property.
  return Object.fromEntries(
    Object.entries(def)
      .filter(([k]) => !config.omitFields.includes(k))
      .map(([k, v]) => [k, k === 'description' && typeof v === 'string' && config.description === 'first-sentence' ? firstSentence(v) : v]),
  ) as McpTool;
}
