import type * as CacheModuleNs from '../../src/embed/cache.ts';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withDiskCache } from '../../src/embed/cache.ts';
import { decodeSegment, encodeSegment, FLOAT32, FLOAT64, textKey } from '../../src/util/vector-segments.ts';
import { countingEncoder } from './fixtures/counting-encoder.ts';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'tooltax-cache-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Re-import the cache module with its per-process memory emptied, as a new process would. */
type CacheModule = typeof CacheModuleNs;

async function freshCacheModule(): Promise<CacheModule> {
  vi.resetModules();
  return import('../../src/embed/cache.ts');
}

describe('disk embedding cache', () => {
  it('warm() encodes and caches what is missing, and embed() then gives the same vectors from the cache', async () => {
    const inner = countingEncoder();
    const cached = withDiskCache(inner, { dir: tempDir() });
    await cached.warm(['list open issues', 'send a message', 'list open issues']);
    expect(inner.calls).toEqual([['list open issues', 'send a message']]);
    const vectors = await cached.embed(['send a message', 'list open issues']);
    expect(inner.calls.length).toBe(1);
    expect(vectors).toEqual(await countingEncoder().embed(['send a message', 'list open issues']));
  });

  it('returns identical vectors and skips the encoder on a second call', async () => {
    const inner = countingEncoder();
    const cached = withDiskCache(inner, { dir: tempDir() });
    const texts = ['list open issues', 'send a message', 'list open issues'];
    const first = await cached.embed(texts);
    expect(inner.calls).toEqual([['list open issues', 'send a message']]); // deduplicated
    expect(cached.stats()).toMatchObject({ hits: 1, misses: 2, encoderCalls: 1, entries: 2 });

    const second = await cached.embed(texts);
    expect(inner.calls.length).toBe(1);
    expect(second).toEqual(first);
    expect(cached.stats()).toMatchObject({ hits: 4, misses: 2, encoderCalls: 1 });
  });

  it('sends only uncached texts, in batches', async () => {
    const inner = countingEncoder();
    const cached = withDiskCache(inner, { dir: tempDir(), batchSize: 2 });
    await cached.embed(['a', 'b']);
    await cached.embed(['a', 'c', 'b', 'd', 'e']);
    expect(inner.calls).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('returns copies, so callers cannot corrupt the cache', async () => {
    const cached = withDiskCache(countingEncoder(), { dir: tempDir() });
    const [v] = await cached.embed(['x']);
    const original = v!.slice();
    v!.fill(0);
    expect((await cached.embed(['x']))[0]).toEqual(original);
  });

  it('survives a reload from disk (fresh module state)', async () => {
    const dir = tempDir();
    const inner1 = countingEncoder();
    const v1 = await withDiskCache(inner1, { dir }).embed(['alpha', 'beta']);

    const fresh = await freshCacheModule();
    const inner2 = countingEncoder();
    const cached2 = fresh.withDiskCache(inner2, { dir });
    const v2 = await cached2.embed(['beta', 'alpha']);
    expect(inner2.calls).toEqual([]);
    expect(v2).toEqual([v1[1], v1[0]]);
    expect(cached2.stats()).toMatchObject({ hits: 2, misses: 0, entries: 2 });
  });

  it('survives a process restart', () => {
    const dir = tempDir();
    const child = join(import.meta.dirname, 'fixtures', 'cache-child.ts');
    const run = (...texts: string[]) =>
      JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', child, dir, ...texts], { encoding: 'utf8' })) as {
        stats: { hits: number; misses: number };
        innerCalls: number;
        vectors: number[][];
      };
    const a = run('one', 'two');
    expect(a.innerCalls).toBe(1);
    const b = run('two', 'one', 'three');
    expect(b.stats).toMatchObject({ hits: 2, misses: 1 });
    expect(b.vectors[0]).toEqual(a.vectors[1]);
    expect(b.vectors[1]).toEqual(a.vectors[0]);
  });

  it('writes atomically: no temp files remain and only complete segments are read', async () => {
    const dir = tempDir();
    const cached = withDiskCache(countingEncoder(), { dir });
    await cached.embed(['p', 'q']);
    await cached.embed(['r']);
    const files = readdirSync(cached.dir);
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const segments = files.filter((f) => f.endsWith('.seg'));
    expect(segments).toHaveLength(2); // one immutable segment per batch of new vectors
    for (const f of segments) expect(decodeSegment(FLOAT32, readFileSync(join(cached.dir, f)), 8)).toBeDefined();

    // A crash mid-write leaves at most a temp file; a torn segment is skipped, not trusted.
    const whole = readFileSync(join(cached.dir, segments[0]!));
    writeFileSync(join(cached.dir, 'zz-torn.seg'), whole.subarray(0, whole.length - 3));
    writeFileSync(join(cached.dir, 'zz-partial.seg.123.tmp'), whole.subarray(0, 10));
    const fresh = await freshCacheModule();
    const inner = countingEncoder();
    const reloaded = fresh.withDiskCache(inner, { dir });
    await reloaded.embed(['p', 'q', 'r']);
    expect(inner.calls).toEqual([]);
    expect(reloaded.stats()).toMatchObject({ entries: 3, skippedFiles: 1 });
  });

  it('merges many small segments on load', async () => {
    const dir = tempDir();
    const cached = withDiskCache(countingEncoder(), { dir });
    for (let i = 0; i < 20; i++) await cached.embed([`query ${i}`]);
    const fresh = await freshCacheModule();
    const reloaded = fresh.withDiskCache(countingEncoder(), { dir });
    expect(reloaded.stats().entries).toBe(20);
    expect(readdirSync(reloaded.dir).filter((f) => f.endsWith('.seg'))).toHaveLength(1);
  });

  it('keys by encoder fingerprint: a different fit does not reuse vectors', async () => {
    const dir = tempDir();
    const a = withDiskCache(countingEncoder(8, 'fit-a'), { dir });
    const innerB = countingEncoder(8, 'fit-b');
    const b = withDiskCache(innerB, { dir });
    await a.embed(['same text']);
    await b.embed(['same text']);
    expect(innerB.calls).toHaveLength(1);
    expect(a.dir).not.toBe(b.dir);
  });

  it('stores vectors compactly in binary (32-byte key + 4 bytes a dimension)', () => {
    const v = Float32Array.from([0.5, -0.25, 1, 0]);
    const buf = encodeSegment(FLOAT32, 4, [[textKey('hello'), v]]);
    expect(buf.length).toBe(16 + 32 + 16);
    expect(decodeSegment(FLOAT32, buf, 4)!.get(textKey('hello'))).toEqual(v);
    expect(decodeSegment(FLOAT32, buf, 5)).toBeUndefined(); // wrong dimension is rejected
    expect(decodeSegment(FLOAT64, buf, 4)).toBeUndefined(); // another element type is rejected
  });

  it('rejects an encoder that returns the wrong number or size of vectors', async () => {
    const bad = { ...countingEncoder(), embed: async () => [new Float32Array(3)] };
    await expect(withDiskCache(bad, { dir: tempDir() }).embed(['a'])).rejects.toThrow(/3-d vector, expected 8/);
    await expect(withDiskCache(bad, { dir: tempDir() }).embed(['a', 'b'])).rejects.toThrow(/1 vectors for 2 texts/);
  });
});
