import type { McpTool } from '../catalog/types.ts';
import { serializeToolDefinition } from '../catalog/types.ts';
import { toolListSection } from '../prompt/sections.ts';
import type { PromptSection } from '../prompt/types.ts';
import { cached, runCache } from '../util/run-scope.ts';

// One section object per (label, definition), reused on every turn: the definition is
// serialised once and the token counter's memo sees the same string each time.
const SECTIONS = runCache('definition sections by label and definition', () => new Map<string, WeakMap<McpTool, PromptSection>>());

function definitionSection(label: string, definition: McpTool, memo: Map<string, WeakMap<McpTool, PromptSection>>): PromptSection {
  let byDef = memo.get(label);
  if (!byDef) memo.set(label, (byDef = new WeakMap()));
  let s = byDef.get(definition);
  if (!s) byDef.set(definition, (s = toolListSection(label, serializeToolDefinition(definition), false, [definition])));
  return s;
}

/**
 * Per-turn full schemas as one heading section plus one section per tool definition, all with
 * the same label, all marked as the tool list (the heading with no definition of its own). The concatenated text is exactly the heading and one tools/list JSON per
 * line, and since every seam is a newline followed by `{`, the token count of the whole equals
 * the sum of the parts (src/prompt/sections.ts): each definition is tokenised once per run
 * instead of once per distinct per-turn combination.
 */
export function schemaSections(label: string, heading: string, definitions: readonly McpTool[]): PromptSection[] {
  if (definitions.length === 0) return [];
  const memo = cached(SECTIONS);
  return [toolListSection(label, heading, false, []), ...definitions.map((d) => definitionSection(label, d, memo))];
}
