import { TokenCounter } from '../src/tokens/counter.ts';
const c = new TokenCounter();
for (const [name, text] of [['letters', 'a'.repeat(10_000_000)], ['spaces', ' '.repeat(10_000_000)], ['punct', '!'.repeat(10_000_000)], ['digits', '1'.repeat(10_000_000)], ['mixed', 'ab '.repeat(3_000_000)]] as const) {
  const t = performance.now();
  try { console.log(name, c.count(text), ((performance.now() - t) / 1000).toFixed(2), 's'); } catch (e) { console.log(name, 'ERR', String(e).slice(0, 100), ((performance.now() - t) / 1000).toFixed(2)); }
}
