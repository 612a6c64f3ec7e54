import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createMiniLmEncoder, MiniLmUnavailableError } from '../../src/embed/minilm.ts';

const empty = mkdtempSync(join(tmpdir(), 'tooltax-minilm-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

describe('minilm encoder without weights', () => {
  it('fails fast and clearly when TOOLTAX_MINILM_DIR lacks the files', async () => {
    const err = await createMiniLmEncoder({ modelDir: empty, allowRemote: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MiniLmUnavailableError);
    const msg = (err as Error).message;
    expect(msg).toContain(empty);
    expect(msg).toContain('onnx/model_quantized.onnx');
    expect(msg).toContain('TOOLTAX_MINILM_DIR');
    expect(msg).toContain('TOOLTAX_ALLOW_REMOTE_MODELS=1');
    expect(msg).toContain('Xenova/all-MiniLM-L6-v2');
  });

  it('reads the directory from TOOLTAX_MINILM_DIR', async () => {
    vi.stubEnv('TOOLTAX_MINILM_DIR', empty);
    vi.stubEnv('TOOLTAX_ALLOW_REMOTE_MODELS', '');
    await expect(createMiniLmEncoder()).rejects.toThrow(`TOOLTAX_MINILM_DIR=${empty} lacks config.json`);
  });

  it('names both options when neither a directory nor the hub is configured', async () => {
    vi.stubEnv('TOOLTAX_MINILM_DIR', '');
    vi.stubEnv('TOOLTAX_ALLOW_REMOTE_MODELS', '');
    await expect(createMiniLmEncoder()).rejects.toThrow(/TOOLTAX_MINILM_DIR is not set and TOOLTAX_ALLOW_REMOTE_MODELS is not 1/);
  });
});
