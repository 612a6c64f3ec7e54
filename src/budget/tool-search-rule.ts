import type { Catalog } from '../catalog/types.ts';
import { runHostMeasures } from '../hosts/measure.ts';
import { MEASUREMENT_PARAMS } from '../measure/params.ts';
import { markdownLine } from '../report/escape.ts';
import type { TokenizerName } from '../tokens/counter.ts';

/** The share of the context window past which Claude Code's `ENABLE_TOOL_SEARCH=auto` defers the tools (docs/reference/host-search-sources.md). */
export const AUTO_TOOL_SEARCH_PCT = 10;

/** Whether a catalog's tool list passes the auto rule's threshold, as each host sends it. */
export interface ToolSearchRule {
  /** Context window the share is of (tokens). */
  window: number;
  thresholdPct: number;
  hosts: { id: string; label: string; tokens: number; sharePct: number; over: boolean }[];
}

/**
 * Anthropic's auto rule (Claude Code, `ENABLE_TOOL_SEARCH=auto`): tool search turns on when the
 * tool definitions pass 10% of the model's context window. Each built-in host profile's count of
 * the whole tool list (its per-request tokens included) against that line; only Claude Code
 * publishes such a rule, so the line says where that rule would fall under each host's count.
 */
export function toolSearchRule(
  catalog: Catalog,
  tokenizer: TokenizerName,
  window: number = MEASUREMENT_PARAMS.contextWindow,
): ToolSearchRule {
  const definitions = catalog.tools.map((t) => t.definition);
  const { compare } = runHostMeasures({ id: 'mcp-json', tokenizer });
  return {
    window,
    thresholdPct: AUTO_TOOL_SEARCH_PCT,
    hosts: compare.hosts.map((h) => {
      const tokens = h.listTokens(definitions);
      const sharePct = (100 * tokens) / window;
      return { id: h.id, label: h.profile.label, tokens, sharePct, over: sharePct > AUTO_TOOL_SEARCH_PCT };
    }),
  };
}

/** The rule's block of a text report: a blank line, the heading, one indented line per host. */
export function toolSearchRuleText(r: ToolSearchRule): string[] {
  const [head, ...hosts] = toolSearchRuleLines(r);
  return ['', head!, ...hosts.map((l) => `  ${l}`)];
}

/** The rule's block of a Markdown report: a bold heading and one item per host. */
export function toolSearchRuleMarkdown(r: ToolSearchRule): string[] {
  const [head, ...hosts] = toolSearchRuleLines(r);
  return ['', `**${markdownLine(head!)}**`, '', ...hosts.map((l) => `- ${markdownLine(l)}`)];
}

/** One line per host: its count, its share of the window, and whether the auto rule would turn tool search on. */
function toolSearchRuleLines(r: ToolSearchRule): string[] {
  return [
    `Tool search auto rule (Claude Code's ENABLE_TOOL_SEARCH=auto: on when tool definitions pass ${r.thresholdPct}% of the context window; ${r.window.toLocaleString('en-US')}-token window):`,
    ...r.hosts.map(
      (h) =>
        `${h.id}: ${Math.round(h.tokens).toLocaleString('en-US')} tokens, ${h.sharePct.toFixed(1)}% of the window: ${h.over ? 'over the line, tool search would turn on' : 'under the line, every tool stays loaded'}`,
    ),
  ];
}
