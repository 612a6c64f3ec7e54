import type { McpTool } from '../catalog/types.ts';
import { sectionTokens } from '../prompt/section-tokens.ts';
import type { PromptSection } from '../prompt/types.ts';
import { tokenCounter, type TokenCounter } from '../tokens/counter.ts';
import { comparedProfiles, hostProfile } from './registry.ts';
import type { HostProfile, HostSpec } from './types.ts';
import { cached, runCache } from '../util/run-scope.ts';

/**
 * A host profile bound to its tokenizer's counter, memoised: a definition is rendered and
 * counted once per run however many turns list it (by object; a new object with the same text
 * hits the counter's own memo), a tool-list section's sum once per section object, the request
 * framing once. Measurement stays pipeline-agnostic: it asks only which sections are the tool
 * list (PromptSection.toolList) and renders those; everything else is counted as the text it is.
 */
export class HostMeasure {
  readonly tokens: TokenCounter;
  private readonly perTool = new WeakMap<McpTool, number>();
  private readonly perSection = new WeakMap<PromptSection, { list: readonly McpTool[]; n: number }>();
  private request: number | undefined;

  constructor(
    readonly profile: HostProfile,
    tokens: TokenCounter = tokenCounter(profile.tokenizer),
  ) {
    if (tokens.tokenizer !== profile.tokenizer)
      throw new Error(`host ${profile.id}: counts with ${profile.tokenizer}, given a ${tokens.tokenizer} counter`);
    this.tokens = tokens;
  }

  get id(): string {
    return this.profile.id;
  }

  /** One tool's tokens as this host renders it. */
  toolTokens(definition: McpTool): number {
    let n = this.perTool.get(definition);
    if (n === undefined) this.perTool.set(definition, (n = this.profile.toolTokens(definition, this.tokens)));
    return n;
  }

  /** The once-per-request tokens of a request with tools. */
  requestTokens(): number {
    return (this.request ??= this.profile.requestTokens(this.tokens));
  }

  /** A whole tool list as this host sends it: every tool, and the request framing when there is one. */
  listTokens(definitions: readonly McpTool[]): number {
    if (!definitions.length) return 0;
    return definitions.reduce((n, d) => n + this.toolTokens(d), this.requestTokens());
  }

  /**
   * One prompt section as this host sends it, without the request framing: a tool-list section
   * is its definitions' tokens (a heading or shared templates: none), any other section its
   * text's. Under mcp-json every section is its text.
   */
  sectionTokens(s: PromptSection): number {
    if (!s.toolList || this.profile.keepsPromptText) return sectionTokens(s, this.tokens);
    const known = this.perSection.get(s);
    if (known && known.list === s.toolList) return known.n;
    const n = s.toolList.reduce((sum, d) => sum + this.toolTokens(d), 0);
    this.perSection.set(s, { list: s.toolList, n });
    return n;
  }

  /**
   * Each section's tokens as this host sends the prompt, with the request framing given to the
   * first section that carries a definition (so role, label and stable-prefix sums include it).
   */
  sectionCounts(sections: readonly PromptSection[]): number[] {
    const counts = sections.map((s) => this.sectionTokens(s));
    if (!this.profile.keepsPromptText) {
      const first = sections.findIndex((s) => s.toolList !== undefined && s.toolList.length > 0);
      if (first >= 0) counts[first]! += this.requestTokens();
    }
    return counts;
  }

  /** The tool tokens of a prompt as this host sends it: every `tools` section, and the request framing once when it carries a tool. */
  toolPartTokens(sections: readonly PromptSection[]): number {
    let n = 0;
    let anyTool = false;
    for (const s of sections) {
      if (s.role !== 'tools') continue;
      n += this.sectionTokens(s);
      if (s.toolList?.length) anyTool = true;
    }
    return anyTool && !this.profile.keepsPromptText ? n + this.requestTokens() : n;
  }
}

/**
 * The hosts a run compares, measured together: one lookup per prompt section gives every host's
 * count of it (per host, the same as HostMeasure.toolPartTokens), which keeps the comparison
 * cheap on runs of a hundred thousand turns.
 */
export class HostComparison {
  readonly ids: readonly string[];
  private readonly perSection = new WeakMap<PromptSection, { text: string; list: readonly McpTool[] | undefined; counts: number[] }>();

  constructor(readonly hosts: readonly HostMeasure[]) {
    this.ids = hosts.map((h) => h.id);
  }

  /** Each host's tool tokens of a prompt, in `hosts` order. */
  toolTokens(sections: readonly PromptSection[]): number[] {
    const out = this.hosts.map(() => 0);
    let anyTool = false;
    for (const s of sections) {
      if (s.role !== 'tools') continue;
      let known = this.perSection.get(s);
      if (!known || known.text !== s.text || known.list !== s.toolList)
        this.perSection.set(s, (known = { text: s.text, list: s.toolList, counts: this.hosts.map((h) => h.sectionTokens(s)) }));
      for (let i = 0; i < out.length; i++) out[i]! += known.counts[i]!;
      if (s.toolList?.length) anyTool = true;
    }
    if (anyTool) this.hosts.forEach((h, i) => h.profile.keepsPromptText || (out[i]! += h.requestTokens()));
    return out;
  }
}

const MEASURES = runCache('host measures by host spec', () => new Map<string, { host: HostMeasure; compare: HostComparison }>());

/**
 * The measures of a run's host and of the profiles it is compared with: one set per spec in a
 * run's thread, so their memos serve every pipeline the thread runs.
 */
export function runHostMeasures(spec: HostSpec): { host: HostMeasure; compare: HostComparison } {
  const key = JSON.stringify(spec);
  const runMeasures = cached(MEASURES);
  let m = runMeasures.get(key);
  if (!m) {
    const host = new HostMeasure(hostProfile(spec));
    const compare = new HostComparison(comparedProfiles(spec).map((p) => (p.id === host.id ? host : new HostMeasure(p))));
    runMeasures.set(key, (m = { host, compare }));
  }
  return m;
}
