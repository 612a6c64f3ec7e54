import type { McpTool } from '../catalog/types.ts';
import { seamAfterNewline } from '../tokens/counter.ts';
import type { PromptSection, SectionRole } from './types.ts';

/**
 * Builds a prompt section whose text starts with a non-space character and ends with a
 * newline. At such a seam (unless the text starts with `/`: seamAfterNewline)
 * cl100k/o200k pre-tokenisation always splits, so the tokens of the
 * whole prompt equal the sum of its sections' tokens: counts can be memoised per section
 * and still be exact (test/prompt/sections.test.ts checks it on real prompts).
 */
export function section(role: SectionRole, label: string, text: string, stable: boolean): PromptSection {
  const body = text.trim();
  return { role, label, text: `${body}\n`, stable };
}

/** A `tools` section that is (part of) the MCP tool list: its text, and the definitions a host sends instead (PromptSection.toolList). */
export function toolListSection(label: string, text: string, stable: boolean, definitions: readonly McpTool[]): PromptSection {
  return { ...section('tools', label, text, stable), toolList: definitions };
}

/** True when the seam rule above holds between every pair of sections. */
export function hasCleanSeams(sections: readonly PromptSection[]): boolean {
  return sections.every((s) => s.text.length > 0 && s.text.endsWith('\n') && seamAfterNewline(s.text[0]!));
}

/**
 * A section its builder keeps and hands out again, one object per content (a turn's
 * transcript): measurement keeps its token count with the object (measure/turn-metrics.ts),
 * so the counter need not keep a copy of its text as well.
 */
export function keptSection(s: PromptSection): PromptSection {
  return { ...s, kept: true };
}

export function isKeptSection(s: PromptSection): boolean {
  return s.kept === true;
}
