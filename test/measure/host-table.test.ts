import { describe, expect, it } from 'vitest';
import { comparedProfiles } from '../../src/hosts/registry.ts';
import { hostProfilesTable } from '../../src/measure/host-table.ts';
import type { PipelineSummary } from '../../src/measure/summarize.ts';
import { PIPELINES } from '../../src/pipelines/registry.ts';

const summary = (pipeline: string, label: string, byHost: Record<string, number>) =>
  ({ pipeline, label, toolTokensByHost: byHost }) as unknown as PipelineSummary;

describe('host-profiles table', () => {
  const profiles = comparedProfiles({ id: 'mcp-json', tokenizer: 'cl100k_base' });
  const hosts = (m: number, c: number, r: number, a: number) => ({ 'mcp-json': m, 'openai-chat': c, 'openai-responses': r, anthropic: a });
  const summaries = [
    summary('b1-full-schema', 'B1 Full-Schema', hosts(48000, 20000, 19000, 26000)),
    summary('b4-cli-lazy-oracle', 'B4, oracle discovery (ablation)', hosts(1, 1, 1, 1)),
    summary('tool-attention', 'Tool Attention', hosts(6000, 4000, 3900, 4500)),
    summary('ta-no-gate', 'ablation', hosts(1, 1, 1, 1)),
    summary('adol-short', 'ADOL short tools/list', hosts(30000, 16000, 15000, 20000)),
  ];
  const table = hostProfilesTable(summaries, PIPELINES, profiles, 'context');

  it('shows the methods and the ADOL mechanisms, not the ablations, in registry order', () => {
    expect(table.rows.map((r) => r.method)).toEqual(['B1 Full-Schema', 'Tool Attention', 'ADOL short tools/list']);
    expect(table.rows.map((r) => r.group)).toEqual(['method', 'method', 'ADOL']);
  });

  it('gives each profile its tool tokens and the change versus B1 under the same profile', () => {
    const ta = table.rows[1]!;
    expect(ta['tokens:anthropic']).toBe(4500);
    expect(ta['vsB1:anthropic']).toBeCloseTo((100 * (4500 - 26000)) / 26000, 10);
    expect(ta['vsB1:mcp-json']).toBeCloseTo(-87.5, 10);
    const adol = table.rows[2]!;
    expect(adol['vsB1:openai-chat']).toBeCloseTo(-20, 10);
    expect(adol['vsB1:mcp-json']).toBeCloseTo(-37.5, 10);
    expect(table.rows[0]!['vsB1:mcp-json']).toBeUndefined();
    expect(table.columns.map((c) => c.key)).toEqual(['method', 'group', ...profiles.flatMap((p) => [`tokens:${p.id}`, `vsB1:${p.id}`])]);
    expect(table.notes!.join(' ')).toContain('anthropic (Claude Sonnet 4.5, tool_choice auto)');
  });
});
