import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/embed/types.ts';
import { createUseLiteEncoder, equalLengthBatches } from '../../src/embed/use-lite.ts';
import { dot, norm } from '../../src/embed/vector.ts';

describe('use-lite encoder (Universal Sentence Encoder lite, offline weights)', () => {
  let enc: Encoder;
  beforeAll(async () => {
    enc = await createUseLiteEncoder({ batchSize: 4 });
  });

  it("loads its model when tfjs's wasm backend starts slowly (a busy machine)", () => {
    const child = join(import.meta.dirname, 'fixtures', 'slow-backend-start.ts');
    const out = execFileSync(process.execPath, ['--import', 'tsx', child, '2000'], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ dim: 512 });
  });

  it('describes itself and is 512-d', () => {
    expect(enc.name).toBe('use-lite');
    expect(enc.dim).toBe(512);
    expect(enc.description).toMatch(/@energetic-ai\/model-embeddings-en@\d/);
  });

  it('scores a paraphrase pair higher than an unrelated pair', async () => {
    const [a, b, c, d] = await enc.embed([
      'create a new issue in the repository',
      'open a fresh ticket in the repo',
      'what is the weather forecast for tomorrow',
      'cancel my calendar meeting',
    ]);
    const paraphrase = dot(a!, b!);
    expect(paraphrase).toBeGreaterThan(dot(a!, c!));
    expect(paraphrase).toBeGreaterThan(dot(b!, c!));
    expect(paraphrase).toBeGreaterThan(dot(a!, d!));
  });

  it('returns unit vectors, one per text, across batch boundaries, independent of batching', async () => {
    const texts = [
      'send a slack message',
      'list pull requests',
      'delete a file',
      'search customers',
      'upload an attachment',
      'get invoice by id',
    ];
    const batched = await enc.embed(texts); // batchSize 4: two model calls
    expect(batched).toHaveLength(texts.length);
    for (const v of batched) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(512);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    // Equal-length batches carry no padding: every vector is bit-identical to embedding its text alone.
    for (const [i, t] of texts.entries()) expect(Array.from((await enc.embed([t]))[0]!)).toEqual(Array.from(batched[i]!));
    const mixed = await enc.embed([...texts].reverse());
    expect(mixed.map((v) => Array.from(v)).reverse()).toEqual(batched.map((v) => Array.from(v)));
  });

  it('batches texts by equal token length, shortest first, capped by texts and positions', () => {
    const texts = ['aaaa', 'b', 'cc', 'dddd', 'ee', 'ffff', 'x'.repeat(20_000)];
    const batches = equalLengthBatches(texts, (t) => t.length, 2);
    expect(batches).toEqual([[1], [2, 4], [0, 3], [5], [6]]);
  });

  it('handles an empty list', async () => {
    expect(await enc.embed([])).toEqual([]);
  });
});
