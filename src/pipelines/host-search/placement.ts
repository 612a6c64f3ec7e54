import { section, toolListSection } from '../../prompt/sections.ts';
import type { SearchInput } from '../../sim/search-model.ts';
import type { PromptSection, SharedPromptParts } from '../types.ts';
import type { CatalogSearch } from './catalog-search.ts';

/** The section labels of a search's call and result and of the definitions it loaded. */
export const PLACED_LABELS = { call: 'tool-search-call', loaded: 'loaded-tools' } as const;

/** A search's call and result as conversation items (the host's shapes), one JSON value each. */
export type RenderSearch = (n: number, input: SearchInput, names: readonly string[]) => unknown[];

/**
 * The searches of one task and where their sections sit in each turn's prompt. The providers
 * put what a search loaded into the conversation at the search, so the earlier prefix stays
 * cached: Anthropic's deferred tools are "not included in [the] initial system prompt" and the
 * API expands a `tool_search_tool_result`'s `tool_reference` blocks where the result is;
 * OpenAI: "tool search is designed to preserve the model's cache. When new tools are
 * discovered by the model, they are injected at the end of the context window", in the
 * `tool_search_output` item (docs/reference/host-search-sources.md). So the sections of the
 * searches run on turn j go after the history of the turns before j and before turn j's own
 * transcript (the bench keeps a turn's transcript as one section): a later turn's prompt starts
 * with the earlier turn's prompt, less its closing user message.
 */
export class TaskSearches {
  /** Tool ids loaded so far, in load order. */
  readonly loaded: string[] = [];
  /** Searches run so far, by input (their results are in the context). */
  readonly ran = new Map<string, readonly string[]>();
  private readonly byTurn: PromptSection[][] = [];
  private searches = 0;
  // One section object per search and per set of definitions it loaded, for the task.
  private readonly callSections = new Map<string, PromptSection>();
  private readonly loadedSections = new Map<string, PromptSection>();

  constructor(
    private readonly catalog: CatalogSearch,
    private readonly render: RenderSearch,
  ) {}

  /** Records one search run on this turn: its call and result, then the definitions it newly loaded. */
  add(turnIndex: number, input: SearchInput, found: readonly string[]): void {
    const here = (this.byTurn[turnIndex] ??= []);
    here.push(this.callSection(++this.searches, input, found));
    const fresh = found.filter((f) => !this.loaded.includes(f));
    if (!fresh.length) return;
    this.loaded.push(...fresh);
    here.push(this.loadedSection(fresh));
  }

  /** The turn's prompt: system, the host's up-front sections, then each earlier turn's searches before its transcript, this turn's searches, the user message. */
  prompt(shared: SharedPromptParts, upfront: readonly PromptSection[], turnIndex: number): PromptSection[] {
    const out = [shared.system, ...upfront];
    shared.history.forEach((h, j) => out.push(...(this.byTurn[j] ?? []), h));
    for (let j = shared.history.length; j <= turnIndex; j++) out.push(...(this.byTurn[j] ?? []));
    out.push(shared.user);
    return out;
  }

  private callSection(n: number, input: SearchInput, found: readonly string[]): PromptSection {
    const names = found.map((f) => this.catalog.byId.get(f)!.definition.name);
    const key = `${n}\u0000${JSON.stringify(input)}\u0000${names.join(',')}`;
    let s = this.callSections.get(key);
    if (!s) {
      const text = this.render(n, input, names)
        .map((l) => JSON.stringify(l))
        .join('\n');
      this.callSections.set(key, (s = Object.freeze(section('tools', PLACED_LABELS.call, text, false))));
    }
    return s;
  }

  private loadedSection(ids: readonly string[]): PromptSection {
    const key = ids.join('\u0000');
    let s = this.loadedSections.get(key);
    if (!s) {
      const definitions = ids.map((i) => this.catalog.byId.get(i)!.definition);
      const text = ids.map((i) => this.catalog.serialized.get(i)!).join('\n');
      this.loadedSections.set(key, (s = Object.freeze(toolListSection(PLACED_LABELS.loaded, text, false, definitions))));
    }
    return s;
  }
}
