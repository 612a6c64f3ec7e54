import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { AUTO_TOOL_SEARCH_PCT, toolSearchRule, toolSearchRuleMarkdown, toolSearchRuleText } from '../../src/budget/tool-search-rule.ts';
import { BUILT_IN_HOSTS } from '../../src/hosts/types.ts';
import { runHostMeasures } from '../../src/hosts/measure.ts';

const catalog = loadCatalog(join(process.cwd(), 'test', 'fixtures', 'small-catalog'));

describe('the tool search auto rule in budget', () => {
  it('gives each host its count of the whole list and whether it passes 10% of the window', () => {
    const rule = toolSearchRule(catalog, 'cl100k_base');
    expect(rule.thresholdPct).toBe(AUTO_TOOL_SEARCH_PCT);
    expect(rule.hosts.map((h) => h.id)).toEqual([...BUILT_IN_HOSTS]);
    const anthropic = runHostMeasures({ id: 'mcp-json', tokenizer: 'cl100k_base' }).compare.hosts.find((h) => h.id === 'anthropic')!;
    const row = rule.hosts.find((h) => h.id === 'anthropic')!;
    // The per-request tool-use system prompt is part of what the host sends.
    expect(row.tokens).toBe(anthropic.listTokens(catalog.tools.map((t) => t.definition)));
    expect(row.tokens).toBeGreaterThan(anthropic.requestTokens());
    // A small catalog is under the line in a 200k window, over it in a tiny one.
    expect(rule.hosts.every((h) => !h.over)).toBe(true);
    const tiny = toolSearchRule(catalog, 'cl100k_base', 1000);
    expect(tiny.hosts.every((h) => h.over && h.sharePct === (100 * h.tokens) / 1000)).toBe(true);
    expect(toolSearchRuleText(tiny)[2]).toMatch(/^ {2}mcp-json: [\d,]+ tokens, [\d.]+% of the window: over the line/);
    expect(toolSearchRuleMarkdown(tiny)[1]).toMatch(/^\*\*Tool search auto rule/);
    expect(toolSearchRuleMarkdown(tiny).filter((l) => l.startsWith('- '))).toHaveLength(BUILT_IN_HOSTS.length);
  });
});
