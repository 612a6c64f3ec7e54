import type { TurnRecord } from '../../src/measure/run-pipeline.ts';
import type { TaskKind } from '../../src/tasks/types.ts';

/** What a hand-made turn may set; everything else follows from it consistently. */
export interface TurnSpec {
  toolTokens?: number;
  systemTokens?: number;
  historyTokens?: number;
  userTokens?: number;
  /** Stable prefix; default system + tool tokens (tools rendered before the history). */
  stablePrefixTokens?: number;
  /**
   * Leading tokens shared with the turn before; default as the layout system | tools | history |
   * user shares them: none on the first turn, else the system text, then the tools and the
   * previous turn's history when the tool tokens are unchanged.
   */
  sharedPrefixTokens?: number;
  neededTools?: string[];
  /** Needed tools whose full schema is present (default: all). */
  present?: number;
  /** Needed tools visible by name (default: all). */
  listed?: number;
  discoveryCalls?: number;
  schemaTools?: string[];
  /** Tools visible by name in total (default: the needed ones listed); listed-only ones in `listedForm`. */
  listedTools?: number;
  listedForm?: 'summary' | 'cli-line';
  /** Needed tools the turn's discovery calls already chose (default 0). */
  selected?: number;
}

/** A hand-made task: one TurnRecord per turn spec, with consistent derived fields. */
export function task(
  taskId: string,
  turns: TurnSpec[],
  opts: { pipeline?: string; seed?: number; kind?: TaskKind; ambiguous?: boolean } = {},
): TurnRecord[] {
  const historyOf = (s: TurnSpec | undefined, turn: number) => s?.historyTokens ?? turn * 200;
  return turns.map((s, turn) => {
    const neededTools = s.neededTools ?? ['srv/tool_a'];
    const needed = neededTools.length;
    const present = Math.min(needed, s.present ?? needed);
    const listed = Math.min(needed, s.listed ?? needed);
    const toolTokens = s.toolTokens ?? 2000;
    const systemTokens = s.systemTokens ?? 100;
    const historyTokens = historyOf(s, turn);
    const prev = turn > 0 ? turns[turn - 1] : undefined;
    const sameTools = prev !== undefined && (prev.toolTokens ?? 2000) === toolTokens && (prev.systemTokens ?? 100) === systemTokens;
    const shared = prev === undefined ? 0 : sameTools ? systemTokens + toolTokens + historyOf(prev, turn - 1) : systemTokens;
    const userTokens = s.userTokens ?? 20;
    const schemaTools = s.schemaTools ?? neededTools.slice(0, present);
    return {
      pipeline: opts.pipeline ?? 'hand-made',
      seed: opts.seed ?? 42,
      taskId,
      kind: opts.kind ?? (turns.length === 1 ? 'single' : turns.length >= 15 ? 'long' : 'multi'),
      ambiguous: opts.ambiguous ?? false,
      turn,
      turns: turns.length,
      neededTools,
      schemaTools,
      neededListed: listed,
      promptTokens: systemTokens + toolTokens + historyTokens + userTokens,
      resultTokens: 0,
      measuredResultTokens: 0,
      codeTokens: 0,
      roundTrips: 1 + needed,
      toolTokens,
      toolTokensByLabel: { tools: toolTokens },
      toolTokensByHost: {},
      systemTokens,
      historyTokens,
      userTokens,
      stablePrefixTokens: s.stablePrefixTokens ?? systemTokens + toolTokens,
      sharedPrefixTokens: s.sharedPrefixTokens ?? shared,
      listedTools: s.listedTools ?? Math.max(listed, schemaTools.length),
      fullSchemaTools: schemaTools.length,
      discoveryCalls: s.discoveryCalls ?? 0,
      listedForm: s.listedForm ?? 'summary',
      neededSelected: s.selected ?? 0,
      needed,
      neededPresent: present,
      recall: needed ? present / needed : null,
      precision: schemaTools.length ? present / schemaTools.length : null,
      missingNeeded: present < needed,
    };
  });
}

/** `n` copies of a task shape under distinct ids. */
export function tasks(n: number, turns: TurnSpec[], opts: Parameters<typeof task>[2] & { ambiguousEvery?: number } = {}): TurnRecord[] {
  const out: TurnRecord[] = [];
  for (let i = 0; i < n; i++) {
    const ambiguous = opts.ambiguousEvery ? i % opts.ambiguousEvery === 0 : opts.ambiguous;
    out.push(...task(`t${String(i).padStart(4, '0')}`, turns, { ...opts, ambiguous }));
  }
  return out;
}
