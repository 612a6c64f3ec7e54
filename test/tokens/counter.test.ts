import { Rng } from '../../src/util/rng.ts';
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

describe('TokenCounter.countUnkept', () => {
  it('counts as count() does, without keeping the text whole in the memo', () => {
    const kept = new TokenCounter();
    const unkept = new TokenCounter();
    const texts = [
      'short',
      `User: ${'a long history line, '.repeat(20)}\nAssistant: Understood.\n`,
      `${'x'.repeat(150)} run`,
      'é🙂'.repeat(700),
    ];
    for (const t of texts) expect(unkept.countUnkept(t)).toBe(kept.count(t));
    // Asked again, the whole text was not kept: not a memo hit; count() kept it.
    const hits = unkept.hits;
    unkept.countUnkept(texts[1]!);
    expect(unkept.hits).toBe(hits);
    expect(unkept.countUnkept(texts[1]!)).toBe(kept.count(texts[1]!));
  });
});

describe('seam splitting of long texts', () => {
  it('counts a long text exactly as encoding it whole does', async () => {
    const { loadCatalog } = await import('../../src/catalog/load.ts');
    const { renderToolDefinitions } = await import('../../src/prompt/render-tools.ts');
    const { transcriptSection } = await import('../../src/prompt/shared-parts.ts');
    const { TaskGenerator } = await import('../../src/tasks/generate.ts');
    const { SERVER_SPECS } = await import('../../src/catalog/servers/index.ts');
    const catalog = loadCatalog('catalogs/synthetic-120');
    const task = new TaskGenerator(SERVER_SPECS).generate(42).find((t) => t.kind === 'long')!;
    const texts = [
      renderToolDefinitions(catalog.tools.slice(0, 40)),
      task.turns.map((turn, i) => transcriptSection(catalog, i, turn).text).join(''),
      `${'line one\n  indented two\n\nthree\n'.repeat(40)}tail`,
      // o200k's punctuation pre-token runs on over newlines and slashes (`,\n//` is one token): no seam before a `/`.
      `${'a: string,\n// a comment\n'.repeat(60)}}\n/end`,
      // No seam: counted whole (1,200 chars: above the split threshold; BPE merging of one long word is quadratic).
      'x'.repeat(1200),
      // Indented code: a seam after every newline followed by spaces or tabs and then text, none where only white space follows.
      `${'interface A {\n  a: string;\n    b?: number[];\n\t\tc: "x" | "y";\n  \n\n   /** doc */\n}\n'.repeat(20)}  end`,
    ];
    for (const tokenizer of ['cl100k_base', 'o200k_base'] as const) {
      const counter = new TokenCounter(tokenizer);
      for (const text of texts) {
        expect(text.length).toBeGreaterThan(1000);
        expect(counter.count(text), tokenizer).toBe(counter.encode(text).length);
      }
    }
  });

  it('property: any mix of newlines, spaces, tabs, slashes, punctuation, digits and letters counts as encoded whole', () => {
    const rng = new Rng(42, 'seams');
    const alphabet = ['\n', '\n', ' ', ' ', '  ', '\t', '\r\n', '/', '//', ',', '{', '1', 'a', 'word', 'É', '\u00a0', '\f'];
    for (const tokenizer of ['cl100k_base', 'o200k_base'] as const) {
      const counter = new TokenCounter(tokenizer);
      for (let k = 0; k < 60; k++) {
        let text = '';
        while (text.length < 1200) text += alphabet[Math.floor(rng.next() * alphabet.length)]!;
        expect(counter.count(text), `${tokenizer} ${JSON.stringify(text.slice(0, 40))}…`).toBe(counter.encode(text).length);
      }
    }
  });
});
