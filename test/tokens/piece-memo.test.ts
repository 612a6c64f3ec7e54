import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getEncoding } from 'js-tiktoken';
import { describe, expect, it } from 'vitest';
import { TokenCounter, TOKENIZERS } from '../../src/tokens/counter.ts';

// TokenCounter counts each pre-token once (a memo by piece) instead of calling js-tiktoken's
// encode() on every text: it must give exactly encode(text, [], []).length.

const jsonFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json'))
    .map((f) => join(dir, f));

function corpus(): string[] {
  const texts: string[] = [];
  for (const file of jsonFiles('catalogs')) {
    const text = readFileSync(file, 'utf8');
    texts.push(text.slice(0, 20_000), ...text.split('\n').slice(0, 400));
  }
  texts.push(...readFileSync(join('tasks', 'tasks.jsonl'), 'utf8').split('\n').slice(0, 300));
  texts.push(
    '<|endoftext|> special tokens are text here <|fim_prefix|>',
    '日本語のテキスト、絵文字 🎉👩‍👩‍👧 and Ünïcödé',
    '\u0000\u0001 control \t\r\n\r\n   trailing   ',
    'lone surrogate \uD800 here',
    'x'.repeat(99),
    '  leading spaces and    runs     of    spaces  \n\n\n',
    '{"a":[1,2,3],"b":{"c":"d"}}',
    '',
  );
  // Texts without a run of 100+ characters of one class (those are counted in pieces on purpose: test/tokens/long-runs.test.ts).
  return texts.filter((t) => !/[\p{L}\p{M}]{100,}|[^\s\p{L}\p{M}\p{N}]{100,}|\s{100,}/u.test(t));
}

describe('TokenCounter piece memo', () => {
  const texts = corpus();
  it.each(TOKENIZERS)('equals js-tiktoken encode() on catalogs, tasks and odd text (%s)', (tokenizer) => {
    expect(texts.length).toBeGreaterThan(1000);
    const reference = getEncoding(tokenizer);
    const counter = new TokenCounter(tokenizer);
    const wrong = texts.filter((t) => counter.count(t) !== reference.encode(t, [], []).length);
    expect(wrong.map((t) => t.slice(0, 80))).toEqual([]);
  });
});
