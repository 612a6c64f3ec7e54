import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CachedEncoder } from '../../src/embed/cache.ts';
import { createEncoder, ENCODER_NAMES } from '../../src/embed/registry.ts';

const dir = mkdtempSync(join(tmpdir(), 'tooltax-registry-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('createEncoder', () => {
  it('lists the encoders', () => {
    expect(ENCODER_NAMES).toEqual(['use-lite', 'minilm', 'tfidf']);
  });

  it('rejects unknown names and a tfidf without corpus', async () => {
    await expect(createEncoder('bert')).rejects.toThrow(/unknown encoder "bert"; expected one of use-lite, minilm, tfidf/);
    await expect(createEncoder('tfidf')).rejects.toThrow(/corpus/);
  });

  it('wraps in the disk cache by default and not when cache is false', async () => {
    const cached = await createEncoder('tfidf', { tfidf: { corpus: ['list issues', 'send message'] }, cache: { dir } });
    expect(cached).toBeInstanceOf(CachedEncoder);
    expect(cached.name).toBe('tfidf');
    await cached.embed(['list issues']);
    expect((cached as CachedEncoder).stats().misses).toBe(1);
    const raw = await createEncoder('tfidf', { tfidf: { corpus: ['list issues'] }, cache: false });
    expect(raw).not.toBeInstanceOf(CachedEncoder);
  });

  it('never falls back silently from minilm', async () => {
    await expect(createEncoder('minilm', { minilm: { modelDir: dir, allowRemote: false }, cache: false })).rejects.toThrow(
      /minilm encoder unavailable/,
    );
  });
});
