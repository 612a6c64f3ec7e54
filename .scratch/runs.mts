import { TokenCounter } from '../src/tokens/counter.ts';
const c = new TokenCounter();
const o = new TokenCounter('o200k_base');
const cases: [string, string][] = [
  ['100 letters', 'a'.repeat(100)],
  ['150 letters in a sentence', `Read the ${'b'.repeat(150)} file.`],
  ['1,000 letters', 'abcdefghij'.repeat(100)],
  ['5,000 accented letters', 'é'.repeat(5000)],
  ['2,000 emoji', '😀'.repeat(2000)],
  ['300 spaces between words', `one${' '.repeat(300)}two`],
  ['1,000 punctuation', '!?.,;'.repeat(200)],
  ['3,000 newlines then text', `${'\n'.repeat(3000)}x`],
  ['100,000 letters and 100,000 spaces', `${'q'.repeat(100_000)}${' '.repeat(100_000)}end`],
  ['a JSON line with a long base64 value', JSON.stringify({ data: 'QUJD'.repeat(2000) })],
];
for (const [name, text] of cases) console.log(JSON.stringify([name, c.count(text), o.count(text)]) + ',');
