import type { TurnResult } from '../pipelines/types.ts';
import { setOwn } from '../util/json.ts';
import type { PromptSection, TurnTranscript } from '../prompt/types.ts';
import { promptText } from '../pipelines/types.ts';
import { hasCleanSeams } from '../prompt/sections.ts';
import { sectionTokens } from '../prompt/section-tokens.ts';
import { distinctIds } from './distinct-ids.ts';
import { sharedPrefixTokens } from './shared-prefix.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import type { ListedForm } from '../sim/selection.ts';
import type { HostComparison, HostMeasure } from '../hosts/measure.ts';

/**
 * What is measured on one turn's prompt. Everything here is computed from the prompt text
 * and the exposure a pipeline returned, never from which pipeline it was.
 */
export interface TurnMetrics {
  promptTokens: number;
  /** Sections with role `tools`. */
  toolTokens: number;
  /** Tool tokens by section label (e.g. `summary-pool`, `promoted-schemas`). */
  toolTokensByLabel: Record<string, number>;
  /** Tool tokens as each compared host profile sends the same prompt, by profile id (empty when none is compared). */
  toolTokensByHost: Readonly<Record<string, number>>;
  systemTokens: number;
  historyTokens: number;
  userTokens: number;
  /** Leading run of sections the pipeline marked stable (its own claim). */
  stablePrefixTokens: number;
  /**
   * Leading sections identical (role and text) to the previous turn's prompt in the same task,
   * 0 on a task's first turn: what a provider's prefix cache can serve the turn's first call
   * (./shared-prefix.ts). The projection bills the cache from it (src/sim/projection/turn-model.ts).
   */
  sharedPrefixTokens: number;
  listedTools: number;
  fullSchemaTools: number;
  discoveryCalls: number;
  /** How listed-only tools appear in the prompt (default summary lines). */
  listedForm: ListedForm;
  /** Needed tools the turn's discovery calls show the model choosing itself (see TurnExposure.selectedTools). */
  neededSelected: number;
  /** Retrieval quality of the full schemas present versus the turn's needed tools. */
  needed: number;
  neededPresent: number;
  recall: number | null;
  precision: number | null;
  missingNeeded: boolean;
}

/** Tokens of the sections of one role, added in section order (a loop: no filtered array per role and turn). */
function roleTokens(sections: readonly PromptSection[], counts: readonly number[], role: string): number {
  let n = 0;
  for (let i = 0; i < sections.length; i++) if (sections[i]!.role === role) n += counts[i]!;
  return n;
}

/** The host profiles a turn is measured under (src/hosts). */
export interface TurnHosts {
  /** The run's host: every figure of the turn is as it sends the prompt (default: the prompt text itself, mcp-json). Counts with `tokens`. */
  host?: HostMeasure;
  /** Hosts whose tool tokens are recorded besides (TurnMetrics.toolTokensByHost). */
  compare?: HostComparison;
}

const NO_HOSTS: Readonly<Record<string, number>> = Object.freeze({});

/**
 * The metrics of one turn's prompt; `previous` is the prompt of the task's turn before (none on
 * its first turn), which the shared prefix is measured against.
 */
export function measureTurn(
  result: TurnResult,
  neededTools: readonly string[],
  tokens: TokenCounter,
  hosts: TurnHosts = {},
  previous?: readonly PromptSection[],
): TurnMetrics {
  const { sections } = result.prompt;
  const host = hosts.host && !hosts.host.profile.keepsPromptText ? hosts.host : undefined;
  if (host && host.tokens !== tokens) throw new Error(`measureTurn: host ${host.id} counts with another counter than the turn's`);
  // Exact either way: with clean seams the sum of memoised section counts equals the count
  // of the whole text; without them we count the whole text. A host that renders the tool
  // list sends no single text: its prompt is the sum of its parts.
  const counts = host ? host.sectionCounts(sections) : sections.map((s) => sectionTokens(s, tokens));
  const promptTokens = host || hasCleanSeams(sections) ? sum(counts) : tokens.count(promptText(result.prompt));
  const byLabel = new Map<string, number>();
  sections.forEach((s, i) => {
    if (s.role === 'tools') byLabel.set(s.label, (byLabel.get(s.label) ?? 0) + counts[i]!);
  });
  const toolTokensByLabel = Object.fromEntries(byLabel);
  let stablePrefixTokens = 0;
  for (let i = 0; i < sections.length && sections[i]!.stable; i++) stablePrefixTokens += counts[i]!;

  // A turn needs a few tools: scans of the (distinct) full schemas, not a Set per turn.
  const present = distinctIds(result.exposure.fullSchemaTools);
  const neededPresent = neededTools.filter((t) => present.includes(t)).length;
  const toolTokens = roleTokens(sections, counts, 'tools');
  let toolTokensByHost = NO_HOSTS;
  if (hosts.compare) {
    const values = hosts.compare.toolTokens(sections);
    const byHost: Record<string, number> = {};
    hosts.compare.ids.forEach((id, i) => setOwn(byHost, id, values[i]!));
    toolTokensByHost = byHost;
  }
  return {
    promptTokens,
    toolTokens,
    toolTokensByLabel,
    toolTokensByHost,
    systemTokens: roleTokens(sections, counts, 'system'),
    historyTokens: roleTokens(sections, counts, 'history'),
    userTokens: roleTokens(sections, counts, 'user'),
    stablePrefixTokens,
    sharedPrefixTokens: sharedPrefixTokens(previous, sections, counts),
    listedTools: result.exposure.listedTools.length,
    fullSchemaTools: present.length,
    discoveryCalls: result.exposure.discoveryCalls.length,
    listedForm: result.exposure.listedForm ?? 'summary',
    neededSelected: neededTools.filter((t) => result.exposure.selectedTools?.includes(t)).length,
    needed: neededTools.length,
    neededPresent,
    recall: neededTools.length ? neededPresent / neededTools.length : null,
    precision: present.length ? neededPresent / present.length : null,
    missingNeeded: neededPresent < neededTools.length,
  };
}

/** What a turn adds to the context besides its prompt: tool results, the code the model wrote, and its round trips. */
export interface TranscriptMetrics {
  /** Tokens of the tool results the host kept this turn (every result, or what code printed). */
  resultTokens: number;
  /** Of them, tokens of measured results (the rest are modelled, †). */
  measuredResultTokens: number;
  /** Tokens of the code the model wrote this turn (modelled from the turn's calls, †). */
  codeTokens: number;
  /** Model requests of the turn: its transcript's, plus one per discovery call. */
  roundTrips: number;
}

export function measureTranscript(left: TurnTranscript, discoveryCalls: number, tokens: TokenCounter): TranscriptMetrics {
  const count = (parts: readonly string[]) => parts.reduce((n, p) => n + tokens.count(p), 0);
  return {
    resultTokens: count(left.results),
    measuredResultTokens: count(left.measuredResults),
    codeTokens: count(left.code),
    roundTrips: left.roundTrips + discoveryCalls,
  };
}

function sum(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}
