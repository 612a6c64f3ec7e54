import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processSharedBytes, sharedBytes } from '../../src/util/process-shared.ts';
import { startTsWorker } from '../../src/util/ts-worker.ts';
import { encodeSegment, FLOAT32, FLOAT64, loadSegments, textKey, writeSegment } from '../../src/util/vector-segments.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'tooltax-segments-'));
  dirs.push(d);
  return d;
};

describe('vector segments in shared memory', () => {
  it('loads vectors as views of one shared copy of each file, read once per process', () => {
    const dir = tempDir();
    writeSegment(FLOAT64, dir, 3, [
      [textKey('a'), Float64Array.of(0.1, 0.2, 0.3)],
      [textKey('b'), Float64Array.of(1, 2, 3)],
    ]);
    const { vectors } = loadSegments(FLOAT64, dir, 3);
    const a = vectors.get(textKey('a'))!;
    const b = vectors.get(textKey('b'))!;
    expect([...a]).toEqual([0.1, 0.2, 0.3]);
    expect([...b]).toEqual([1, 2, 3]);
    expect(a.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(b.buffer).toBe(a.buffer);
    const [file] = readdirSync(dir);
    expect(processSharedBytes().get(`segment:${join(dir, file!)}`)).toBe(a.buffer);
    // Segment files never change once written, so a second load uses the bytes already read.
    expect(loadSegments(FLOAT64, dir, 3).vectors.get(textKey('b'))!.buffer).toBe(a.buffer);
  });

  it('keeps a segment it writes in shared memory, as if read: the returned views are the bytes a later load and a worker use', () => {
    const dir = tempDir();
    const computed = Float32Array.of(0.1, 0.2, 0.3, 0.4);
    const written = writeSegment(FLOAT32, dir, 4, [[textKey('w'), computed]]);
    const w = written.get(textKey('w'))!;
    expect(w).not.toBe(computed);
    expect([...w]).toEqual([...computed]);
    expect(w.buffer).toBeInstanceOf(SharedArrayBuffer);
    const [file] = readdirSync(dir);
    expect(processSharedBytes().get(`segment:${join(dir, file!)}`)).toBe(w.buffer);
    expect(loadSegments(FLOAT32, dir, 4).vectors.get(textKey('w'))!.buffer).toBe(w.buffer);
  });

  it('hands the bytes to a worker thread, which does not read the file again', async () => {
    const dir = tempDir();
    writeSegment(FLOAT32, dir, 4, [[textKey('x'), Float32Array.of(1, 2, 3, 4)]]);
    const [file] = readdirSync(dir);
    // Not how segments are ever written: proves the worker reads the shared bytes, not the file.
    writeFileSync(join(dir, file!), encodeSegment(FLOAT32, 4, [[textKey('x'), Float32Array.of(9, 9, 9, 9)]]));
    const worker = await startTsWorker(new URL('./fixtures/segments-worker.ts', import.meta.url), { dir, shared: processSharedBytes() });
    const got = await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject));
    await worker.terminate();
    expect(got).toEqual({ values: [1, 2, 3, 4], shared: true });
  });

  it('merges many segments in the main thread, keeping the merged bytes instead of the small ones', () => {
    const dir = tempDir();
    for (let i = 0; i < 17; i++) writeSegment(FLOAT32, dir, 4, [[textKey(`m${i}`), Float32Array.of(i, 0, 0, 0)]]);
    const small = readdirSync(dir).map((f) => `segment:${join(dir, f)}`);
    const { vectors } = loadSegments(FLOAT32, dir, 4);
    expect(vectors.size).toBe(17);
    const [merged] = readdirSync(dir);
    expect(readdirSync(dir)).toHaveLength(1);
    const held = processSharedBytes();
    expect(small.filter((k) => held.has(k))).toEqual([]);
    // Every vector is a view of the merged file's bytes: one buffer, the one held under its path.
    expect(new Set([...vectors.values()].map((v) => v.buffer))).toEqual(new Set([held.get(`segment:${join(dir, merged!)}`)]));
    expect([...vectors.get(textKey('m16'))!]).toEqual([16, 0, 0, 0]);
  });

  it('leaves merging to the main thread: a worker loads the many segments it was given as they are', async () => {
    const dir = tempDir();
    for (let i = 0; i < 17; i++) writeSegment(FLOAT32, dir, 4, [[textKey(`w${i}`), Float32Array.of(i, 1, 2, 3)]]);
    const files = readdirSync(dir).sort();
    const worker = await startTsWorker(new URL('./fixtures/segments-worker.ts', import.meta.url), { dir, shared: processSharedBytes() });
    const got = await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject));
    await worker.terminate();
    expect(got).toEqual({ values: [0, 1, 2, 3], shared: true });
    expect(readdirSync(dir).sort()).toEqual(files);
  });

  it('gives a worker only the bytes it has not been given yet', () => {
    const before = sharedBytes('test:before', () => new SharedArrayBuffer(8));
    const given = new Set<string>();
    expect(processSharedBytes(given).get('test:before')).toBe(before);
    expect(processSharedBytes(given).size).toBe(0);
    const made = sharedBytes('test:later', () => new SharedArrayBuffer(8));
    expect([...processSharedBytes(given)]).toEqual([['test:later', made]]);
  });
});
