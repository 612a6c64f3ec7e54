import { createUseLiteEncoder } from '../src/embed/use-lite.ts';
const e = await createUseLiteEncoder();
await e.embed(['warm up']);
for (const n of [16000, 32000, 64000]) {
  const words = Array.from({ length: n / 5 }, (_, i) => `w${(i * 7919) % 5000}x`).join(' ').slice(0, n);
  const t = performance.now();
  await e.embed([words]);
  console.log(n, 'chars embed', ((performance.now() - t) / 1000).toFixed(2), 's');
}
