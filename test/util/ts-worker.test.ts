import { describe, expect, it } from 'vitest';
import { startTsWorker } from '../../src/util/ts-worker.ts';

describe('startTsWorker', () => {
  it('runs the module compiled, each source keeping its own import.meta.url', async () => {
    const module = new URL('./fixtures/own-url-worker.ts', import.meta.url);
    const worker = await startTsWorker(module, undefined);
    const got = await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject));
    await worker.terminate();
    const { runsFrom, ...urls } = got as { runsFrom: string };
    expect(urls).toEqual({
      worker: module.href,
      helper: new URL('./fixtures/own-url-helper.ts', import.meta.url).href,
      besideHelper: true,
    });
    // From one compiled file, not through a TypeScript loader in the worker.
    expect(runsFrom).toMatch(/\/\.cache\/workers\/own-url-worker-[0-9a-f]{16}\.mjs$/);
  });

  it('names the file and the error when the module does not compile', async () => {
    await expect(startTsWorker(new URL('./fixtures/no-such-worker.ts', import.meta.url), undefined)).rejects.toThrow(/no-such-worker\.ts/);
  });
});
