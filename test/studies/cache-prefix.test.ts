import { describe, expect, it } from 'vitest';
import type { PromptSection } from '../../src/pipelines/types.ts';
import { section } from '../../src/prompt/sections.ts';

import { commonLeadingSections } from '../../src/measure/shared-prefix.ts';
import { cachedPrefixTokens, layoutOf, sessionCache } from '../../src/studies/prompt-caching/study.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';

const s = (role: PromptSection['role'], label: string, text: string, stable = false) => section(role, label, text, stable);

describe('prefix cache on hand-made prompts', () => {
  const sys = s('system', 'system', 'You are a helpful assistant.', true);
  const tools = s('tools', 'tool-definitions', 'TOOLS v1', true);
  const h1 = s('history', 'turn-1', 'User: hi\nAssistant: hello');
  const h2 = s('history', 'turn-2', 'User: list PRs\nAssistant: done');
  const u2 = s('user', 'user-message', 'User: list PRs');
  const u3 = s('user', 'user-message', 'User: and issues?');

  it('counts the leading sections identical in role and text', () => {
    expect(commonLeadingSections(undefined, [sys, tools, u2])).toBe(0);
    expect(commonLeadingSections([sys, tools, h1, u2], [sys, tools, h1, h2, u3])).toBe(3);
    // Same text, other role: not the same block.
    expect(commonLeadingSections([sys], [{ ...sys, role: 'user' }])).toBe(0);
  });

  it('a changed middle section breaks the cache after it', () => {
    const counts = [600, 800, 300, 300, 50];
    const prev = [sys, tools, h1, u2];
    expect(cachedPrefixTokens(prev, [sys, tools, h1, h2, u3], counts, 0)).toBe(1700);
    const toolsV2 = s('tools', 'tool-definitions', 'TOOLS v2', true);
    expect(cachedPrefixTokens(prev, [sys, toolsV2, h1, h2, u3], counts, 0)).toBe(600);
    // Per-turn schemas before the history (a layout that changes early) lose the history too.
    const promotedA = s('tools', 'promoted-schemas', 'A');
    const promotedB = s('tools', 'promoted-schemas', 'B');
    expect(cachedPrefixTokens([sys, promotedA, h1, u2], [sys, promotedB, h1, h2, u3], counts, 0)).toBe(600);
  });

  it('applies the minimum cacheable size', () => {
    const counts = [600, 800, 300, 300, 50];
    const prev = [sys, tools, h1, u2];
    const cur = [sys, tools, h1, h2, u3];
    expect(cachedPrefixTokens(prev, cur, counts, 1024)).toBe(1700);
    expect(cachedPrefixTokens(prev, cur, counts, 2048)).toBe(0);
    expect(cachedPrefixTokens(prev, [sys, s('tools', 'x', 'other'), h1], counts, 1024)).toBe(0);
  });

  it('accounts a session with a real tokenizer: cold first turn, then the shared prefix', () => {
    const tokens = tokenCounter();
    const big = s('tools', 'tool-definitions', Array.from({ length: 300 }, (_, i) => `tool_${i}: does thing number ${i}`).join('\n'), true);
    const turns = sessionCache(
      [
        [sys, big, u2],
        [sys, big, h2, u3],
      ],
      tokens,
      1024,
    );
    expect(turns[0]!.cachedTokens).toBe(0);
    expect(turns[1]!.cachedTokens).toBe(tokens.count(sys.text) + tokens.count(big.text));
    expect(turns[1]!.promptTokens).toBe([sys, big, h2, u3].reduce((a, x) => a + tokens.count(x.text), 0));
    expect(turns[1]!.declaredStableTokens).toBe(turns[1]!.cachedTokens);
    expect(layoutOf([sys, big, h1, h2, u3])).toBe('system | tool-definitions | history×2 | user-message');
  });
});
