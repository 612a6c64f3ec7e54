import { describe, expect, it } from 'vitest';
import { TokenCounter } from '../../src/tokens/counter.ts';

describe('TokenCounter', () => {
  it('matches the reference encodings of known strings', () => {
    const cl = new TokenCounter('cl100k_base');
    // Reference ids from OpenAI's tiktoken (cl100k_base / o200k_base).
    expect(cl.encode('hello world')).toEqual([15339, 1917]);
    expect(cl.encode('tiktoken is great!')).toEqual([83, 1609, 5963, 374, 2294, 0]);
    expect(new TokenCounter('o200k_base').encode('hello world')).toEqual([24912, 2375]);
    expect(cl.count('')).toBe(0);
  });

  it('counts special-token text as plain text instead of throwing', () => {
    expect(new TokenCounter().count('<|endoftext|>')).toBe(7);
  });

  it('memoises by content: a text seen twice is encoded once', () => {
    const c = new TokenCounter();
    const text = JSON.stringify({ name: 'list_pull_requests', description: 'List PRs' });
    const first = c.count(text);
    const second = c.count(`${text}`);
    expect(second).toBe(first);
    expect(c.misses).toBe(1);
    expect(c.hits).toBe(1);
  });
});
