import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { anthropicProfile, anthropicToolUseRow } from '../../src/hosts/anthropic.ts';
import { HostMeasure } from '../../src/hosts/measure.ts';
import { ANTHROPIC_TOOL_USE_TOKENS } from '../../src/hosts/sources.ts';
import { withExamples } from '../../src/pipelines/tool-examples/pipeline.ts';

// Anthropic publishes one figure per model and tool choice: the tool-use system prompt. The
// profile must add exactly that, once per request that carries a tool, and nothing without tools.

describe('anthropic profile', () => {
  it.each(ANTHROPIC_TOOL_USE_TOKENS.flatMap((r) => r.ids.map((id) => [id, r] as const)))(
    '%s: adds the published tool-use system prompt for each tool choice',
    (id, row) => {
      for (const [choice, n] of [
        ['auto', row.autoNone],
        ['none', row.autoNone],
        ['any', row.anyTool],
        ['tool', row.anyTool],
      ] as const) {
        const host = new HostMeasure(anthropicProfile('cl100k_base', id, choice));
        expect(host.requestTokens()).toBe(n);
      }
    },
  );

  it('adds nothing to a request without tools ("a tool choice of none uses 0 additional system prompt tokens")', () => {
    expect(new HostMeasure(anthropicProfile('cl100k_base')).listTokens([])).toBe(0);
  });

  it('knows dated snapshots of a model and refuses a model it has no figure for', () => {
    expect(anthropicToolUseRow('claude-sonnet-4-5-20250929')?.model).toBe('Claude Sonnet 4.5');
    expect(anthropicToolUseRow('claude-opus-4-20250514')?.model).toBe('Claude Opus 4');
    // Not Opus 4: the rows match whole ids or dated snapshots only.
    expect(anthropicToolUseRow('claude-opus-4-5')?.model).toBe('Claude Opus 4.5');
    expect(anthropicToolUseRow('claude-2')).toBeUndefined();
    expect(() => anthropicProfile('cl100k_base', 'claude-2')).toThrow(/no published tool-use system prompt/);
  });

  it('sends name, description and input_schema: the tools/list fields it drops cost nothing, the tokenizer is the run’s', () => {
    const catalog = loadCatalog('catalogs/real/filesystem.json');
    for (const tokenizer of ['cl100k_base', 'o200k_base'] as const) {
      const host = new HostMeasure(anthropicProfile(tokenizer));
      expect(host.profile.tokenizer).toBe(tokenizer);
      for (const t of catalog.tools) {
        const d = t.definition;
        const sent = JSON.stringify({ name: d.name, description: d.description, input_schema: d.inputSchema });
        expect(host.toolTokens(d)).toBe(host.tokens.count(sent));
      }
      const defs = catalog.tools.map((t) => t.definition);
      expect(host.listTokens(defs)).toBe(defs.reduce((n, d) => n + host.toolTokens(d), 0) + 496);
    }
  });

  it('sends and counts a definition’s tool use examples (input_examples, a documented tool field)', () => {
    const catalog = loadCatalog('catalogs/real/filesystem.json');
    const host = new HostMeasure(anthropicProfile('cl100k_base'));
    for (const t of catalog.tools) {
      const d = withExamples(t.definition);
      const sent = JSON.stringify({
        name: d.name,
        description: d.description,
        input_schema: d.inputSchema,
        input_examples: d.input_examples,
      });
      expect(host.toolTokens(d)).toBe(host.tokens.count(sent));
      expect(host.toolTokens(d)).toBeGreaterThan(host.toolTokens(t.definition));
    }
    expect(host.profile.sends).toContain('input_examples');
  });
});
