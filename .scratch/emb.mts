import { createUseLiteEncoder } from '../src/embed/use-lite.ts';
const e = await createUseLiteEncoder();
await e.embed(['warm up']);
for (const n of [1000, 4000, 8000, 16000, 32000]) {
  const words = Array.from({ length: n / 6 }, (_, i) => `w${(i * 7919) % 5000}x`).join(' ');
  const t = performance.now();
  await e.embed([words.slice(0, n)]);
  console.log(n, 'chars', ((performance.now() - t) / 1000).toFixed(2), 's');
}
