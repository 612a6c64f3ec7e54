import { serializeToolDefinition, type CatalogTool } from '../catalog/types.ts';

/**
 * The exact strings the retrieval pipelines embed. Kept in one place so that the bench's
 * up-front batch (src/retrieval/prewarm.ts) embeds exactly what the pipelines later ask for
 * and every per-turn lookup is a cache hit.
 */

/**
 * Tool Attention's s_i (paper §4.2: "a single concatenated string of name and a shortened
 * natural-language description"): `server/name: summary`, the same text as the tool's line
 * in the phase-1 summary pool, so the router matches what the model sees.
 */
export function toolSummaryText(tool: CatalogTool): string {
  return `${tool.id}: ${tool.summary}`;
}

/** What B3 embeds per tool. */
export type DefinitionTextMode = 'definition' | 'name-description';

/**
 * B3 Simple Retrieval ranks full schemas (paper §6.4: "cosine retrieval over full schemas"):
 * `definition` embeds the serialised tools/list entry exactly as it enters the prompt (name,
 * description, input schema); `name-description` embeds `name: description` only.
 */
export function toolDefinitionText(tool: CatalogTool, mode: DefinitionTextMode = 'definition'): string {
  return mode === 'definition' ? serializeToolDefinition(tool.definition) : `${tool.name}: ${tool.definition.description ?? ''}`;
}

/** Characters of the last observation appended to the query when re-embedding with it. */
export const OBSERVATION_CHARS = 1000;

/**
 * The routing query (paper §4.2: the current user message, optionally with context). With an
 * observation (the previous turn's transcript), its first `OBSERVATION_CHARS` characters are
 * appended on a new line.
 */
export function queryText(userMessage: string, observation?: string, observationChars = OBSERVATION_CHARS): string {
  const obs = observation?.trim();
  return obs ? `${userMessage}\n${obs.slice(0, observationChars)}` : userMessage;
}
