import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import type { McpTool } from '../../src/catalog/types.ts';
import { duplicationStats } from '../../src/pipelines/adol/duplication-stats.ts';
import { TokenCounter } from '../../src/tokens/counter.ts';

const tokens = new TokenCounter('cl100k_base');
const owner = { description: 'Repository owner', type: 'string' };
const ownerOther = { description: 'Owner login', type: 'string' };
const repo = { description: 'Repository name', type: 'string' };

const t = (name: string, properties: Record<string, unknown>, required?: string[]): McpTool => ({
  name,
  inputSchema: { type: 'object', properties, ...(required ? { required } : {}) },
});

// Known answers: owner present in 4, identical (modal) in 3; repo identical in 3 of 3;
// required exactly ["owner","repo"] in 2, in any order in 3.
const mini: McpTool[] = [
  t('a', { owner, repo }, ['owner', 'repo']),
  t('b', { repo, owner }, ['owner', 'repo']),
  t('c', { owner: { type: 'string', description: 'Repository owner' }, repo }, ['repo', 'owner']),
  t('d', { owner: ownerOther, q: { type: 'string' } }, ['q']),
  t('e', { q: { type: 'string' } }),
];

describe('ADOL duplication statistics', () => {
  it('counts identical definitions (key order ignored), not presence', () => {
    const s = duplicationStats('mini', mini, tokens);
    expect(s.tools).toBe(5);
    expect(s.owner).toMatchObject({ present: 4, identical: 3, distinct: 2, modal: owner });
    expect(s.repo).toMatchObject({ present: 3, identical: 3, distinct: 1 });
    expect(s.requiredOwnerRepo).toBe(2);
    expect(s.requiredOwnerRepoAnyOrder).toBe(3);
  });

  it('repetition rate: repeated copies beyond the first, over the list tokens', () => {
    const s = duplicationStats('mini', mini, tokens);
    const total = mini.reduce((n, x) => n + tokens.count(JSON.stringify(x)), 0);
    expect(s.totalTokens).toBe(total);
    const unit = (text: string) => tokens.count(text);
    const expected =
      2 * unit(`"owner":${JSON.stringify(owner)}`) + // in a, b, c (c's key order differs: same unit)
      2 * unit(`"repo":${JSON.stringify(repo)}`) + // a, b, c
      1 * unit('"required":["owner","repo"]') + // a, b
      1 * unit('"q":{"type":"string"}'); // d, e
    expect(s.repeatedTokens).toBe(expected);
    expect(s.repetitionRate).toBeCloseTo(expected / total, 12);
    expect(s.threeFieldTokens).toBe(
      2 * unit(`"owner":${JSON.stringify(owner)}`) + 2 * unit(`"repo":${JSON.stringify(repo)}`) + unit('"required":["owner","repo"]'),
    );
    // summary.json's dup share: all occurrences of definitions in ≥ 2 tools (owner ×3, repo ×3, q ×2).
    expect(s.dupTokens).toBe(
      2 * unit(JSON.stringify(owner)) +
        unit(JSON.stringify({ type: 'string', description: 'Repository owner' })) +
        3 * unit(JSON.stringify(repo)) +
        2 * unit('{"type":"string"}'),
    );
  });

  it('a catalog without repetition has rate 0', () => {
    const s = duplicationStats('none', [t('a', { x: { type: 'string' } }), t('b', { y: { type: 'integer' } })], tokens);
    expect(s.repeatedTokens).toBe(0);
    expect(s.owner.identical).toBe(0);
  });

  const september = join(process.cwd(), 'catalogs', 'real', 'extra', 'github-2025-09.json');
  it("reproduces the proposal's counts on the September 2025 GitHub snapshot and summary.json's dup share", () => {
    const c = loadCatalog(september);
    const s = duplicationStats(
      c.name,
      c.tools.map((x) => x.definition),
      tokens,
    );
    expect([s.tools, s.owner.identical, s.repo.identical, s.requiredOwnerRepo]).toEqual([60, 36, 39, 9]);
    expect(s.dupShare).toBeCloseTo(0.248, 3);
  });
});
