/**
 * CPU cost of untrusted-input handling (issue 13), measured with tinybench:
 * derived summaries of long descriptions without a sentence break (linear now, against the
 * word-by-word reference it replaced) and token counts of long runs without a space (counted
 * in pieces, against js-tiktoken on one piece). Run: `node --import tsx scripts/input-cost.ts`.
 * Timings depend on the machine's load; compare the rows with each other.
 */
import { getEncoding } from 'js-tiktoken';
import seedrandom from 'seedrandom';
import { Bench } from 'tinybench';
import { deriveSummary } from '../src/catalog/load.ts';
import type { McpTool } from '../src/catalog/types.ts';
import { countTokens, TokenCounter } from '../src/tokens/counter.ts';

/** The summary before it was made linear: drop one word, count again. */
function wordByWordSummary(definition: McpTool): string {
  const words = definition.name.replace(/[_-]+/g, ' ').toLowerCase();
  const first =
    (definition.description ?? '')
      .replace(/\s+/g, ' ')
      .trim()
      .split(/(?<=[.!?])\s/)[0] ?? '';
  let text = first ? `${words}: ${first}` : words;
  while (countTokens(text) > 60) {
    text = `${text.split(' ').slice(0, -1).join(' ')}…`.replace(/…+$/, '…');
    if (!text.includes(' ')) break;
  }
  return text;
}

const rng = seedrandom('42');
const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(rng() * 26))).join('');
const tool = (bytes: number, i: number): McpTool => ({ name: `t${i}`, description: 'alpha beta, '.repeat(bytes / 12), inputSchema: {} });
const counter = new TokenCounter();
const direct = getEncoding('cl100k_base');
let i = 0;

const bench = new Bench({ iterations: 5, time: 0 });
bench
  .add('deriveSummary, 4 KB without a sentence break', () => void deriveSummary(tool(4_000, i++)))
  .add('word-by-word reference, 4 KB', () => void wordByWordSummary(tool(4_000, i++)))
  .add('deriveSummary, 40 KB', () => void deriveSummary(tool(40_000, i++)))
  .add('deriveSummary, 1 MB', () => void deriveSummary(tool(1_000_000, i++)))
  .add('count 16 KB of random letters (pieces)', () => void counter.count(letters(16_000)))
  .add('js-tiktoken on 2 KB of random letters (one piece)', () => void direct.encode(letters(2_000)));
await bench.run();
console.table(bench.table());
