import type { McpTool } from '../catalog/types.ts';

/**
 * The prompt a pipeline returns for a turn: labelled sections whose concatenation is the exact
 * text sent to the model. Every metric is measured on this text.
 */

export type SectionRole = 'system' | 'tools' | 'history' | 'user';

export interface PromptSection {
  role: SectionRole;
  /** What this part is: `tool-definitions`, `summary-pool`, `promoted-schemas`, `cli-help`... */
  label: string;
  text: string;
  /** Identical on every turn of a session (and so part of a cacheable prefix when it leads). */
  stable: boolean;
  /**
   * Set when the section is (part of) the MCP tool list, its text the tools/list form of these
   * definitions (a heading alone, or shared templates, carry none). A host sends the
   * definitions in its own tool parameter instead of this text: src/hosts renders them.
   */
  toolList?: readonly McpTool[];
  /** Kept and handed out again by its builder, one object per content (keptSection in ./sections.ts). */
  kept?: true;
}

/** The prompt is the concatenation of its sections' text, in order: stable parts first. */
export interface Prompt {
  sections: PromptSection[];
}

/** The pipeline-independent parts every pipeline is given (system text, history so far, user message). */
export interface SharedPromptParts {
  system: PromptSection;
  history: PromptSection[];
  user: PromptSection;
}

/** The exact text sent to the model. */
export function promptText(prompt: Prompt): string {
  return prompt.sections.map((s) => s.text).join('');
}

/**
 * What a finished turn leaves in the context: its transcript section (the history from the
 * next turn on) and the parts of it a table counts apart. Each part is whole lines of the
 * section's text that start a line and end with a newline, so its tokens are its share of the
 * section's count.
 */
export interface TurnTranscript {
  section: PromptSection;
  /** The tool results the host keeps (every result of a direct call; what code printed). */
  results: readonly string[];
  /** Of `results`, those whose text is a measured result (src/catalog/tool-results.ts). */
  measuredResults: readonly string[];
  /** The code the model wrote (modelled from the turn's calls). */
  code: readonly string[];
  /** Model requests of the turn: one, plus one per tool call or code execution. */
  roundTrips: number;
}
