import { cached, runCache } from '../util/run-scope.ts';
import type { Catalog } from '../catalog/types.ts';
import type { PromptSection, SharedPromptParts, TurnTranscript } from './types.ts';
import { toolResults, type ToolResult } from '../catalog/tool-results.ts';
import type { TaskTurn } from '../tasks/types.ts';
import { keptSection, section } from './sections.ts';
// The arguments of the modelled calls: valid against each tool's schema.
import { exampleArguments } from './example-values.ts';

/**
 * The parts of the prompt that do not depend on the pipeline: the system text (C_sys), the
 * conversation so far, and the user's message. Every pipeline receives the same ones, so
 * differences between pipelines are differences in how they present tools.
 */
const SYSTEM_PROMPT = [
  "You are an operations assistant for a software team. You complete the user's requests by calling the tools made available to you.",
  'Call a tool only when it is needed, with arguments that follow its input schema exactly. If a tool you need is not available, say so and ask how to proceed instead of guessing.',
  'After each tool result, report what you found in a few sentences and propose the next step.',
].join('\n');

// One object for the system text and one per user message, shared by every pipeline and task
// set (frozen: sections are never changed), so measurement keeps each count with its object
// (src/prompt/section-tokens.ts) instead of hashing the same text again on every turn.
const SYSTEM_SECTION: PromptSection = Object.freeze(section('system', 'system', SYSTEM_PROMPT, true));
const USER_SECTIONS = runCache('user message sections by message', () => new Map<string, PromptSection>());
/** Messages remembered at most; then the memo starts over. */
const MAX_USER_SECTIONS = 100_000;

function userSection(message: string): PromptSection {
  const userSections = cached(USER_SECTIONS);
  let s = userSections.get(message);
  if (!s) {
    if (userSections.size >= MAX_USER_SECTIONS) userSections.clear();
    userSections.set(message, (s = Object.freeze(section('user', 'user-message', `User: ${message}`, false))));
  }
  return s;
}

/**
 * The transcript a completed turn leaves in the context when the model calls tools directly:
 * the user's message, the calls the agent made (the turn's ground-truth tools, in order), each
 * call's result (src/catalog/tool-results.ts: measured where the tool was run, modelled †
 * elsewhere), and a short reply. This is the ideal trajectory; what goes wrong when a pipeline
 * hides a needed tool is the projection layer's business. Pipelines whose host keeps something
 * else (code that prints a filtered answer) return their own TurnTranscript.
 */
export function transcriptSection(catalog: Catalog, turnIndex: number, turn: TaskTurn): PromptSection {
  return directTranscript(catalog, turnIndex, turn).section;
}

/** transcriptSection with its results counted apart (see TurnTranscript). */
export function directTranscript(catalog: Catalog, turnIndex: number, turn: TaskTurn): TurnTranscript {
  // The same for every pipeline: built once per (catalog, turn) and shared (sections are never
  // changed), so the pipelines of a run do not rebuild it and its token count stays with the
  // object (measure/turn-metrics.ts).
  const shared = sharedOf(catalog);
  let built = shared.byTurn.get(turn);
  // A turn is at the same index of its task every time (the label says which; checked all the same).
  if (!built || built.section.label !== transcriptLabel(turnIndex))
    shared.byTurn.set(turn, (built = buildTranscript(catalog, shared.results, turnIndex, turn)));
  return built;
}

interface CatalogShared {
  results: ReadonlyMap<string, ToolResult>;
  byTurn: WeakMap<TaskTurn, TurnTranscript>;
}
const TRANSCRIPTS = runCache('direct transcripts by catalog and turn', () => new WeakMap<Catalog, CatalogShared>());
function sharedOf(catalog: Catalog): CatalogShared {
  const transcripts = cached(TRANSCRIPTS);
  let shared = transcripts.get(catalog);
  if (!shared) transcripts.set(catalog, (shared = { results: toolResults(catalog), byTurn: new WeakMap() }));
  return shared;
}
const transcriptLabel = (turnIndex: number) => `turn-${turnIndex + 1}`;

function buildTranscript(
  catalog: Catalog,
  toolResultsById: ReadonlyMap<string, ToolResult>,
  turnIndex: number,
  turn: TaskTurn,
): TurnTranscript {
  const lines = [`User: ${turn.user}`];
  const results: string[] = [];
  const measuredResults: string[] = [];
  for (const id of turn.tools) {
    const tool = catalog.tools.find((t) => t.id === id);
    if (!tool) throw new Error(`transcript: unknown tool ${id}`);
    const result = toolResultsById.get(id)!;
    lines.push(`Assistant → tool call ${tool.name} ${JSON.stringify(exampleArguments(tool.definition.inputSchema))}`);
    const line = resultLine(tool.name, result.text);
    lines.push(line.slice(0, -1));
    results.push(line);
    if (result.source === 'measured') measuredResults.push(line);
  }
  lines.push(
    turn.tools.length
      ? `Assistant: Done — summarised the ${turn.tools.length === 1 ? 'result' : 'results'} above for you.`
      : 'Assistant: Understood.',
  );
  return {
    section: keptSection(section('history', transcriptLabel(turnIndex), lines.join('\n'), false)),
    results,
    measuredResults,
    code: [],
    roundTrips: 1 + turn.tools.length,
  };
}

/** A tool result as the transcript shows it: one part that starts a line and ends with a newline. */
export function resultLine(toolName: string, text: string): string {
  return `Tool result (${toolName}): ${text.trim()}\n`;
}

export function sharedParts(history: readonly PromptSection[], message: string): SharedPromptParts {
  return { system: SYSTEM_SECTION, history: [...history], user: userSection(message) };
}
