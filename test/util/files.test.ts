import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTsWorker } from '../../src/util/ts-worker.ts';

const dir = mkdtempSync(join(tmpdir(), 'tooltax-atomic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('lets two threads of one process write the same file at once: no failed rename, no temp file left, one whole version', async () => {
    const path = join(dir, 'calibration.json');
    const texts = ['{"theta":0.43}\n', '{"theta":0.43}\n'.repeat(50)];
    // Many writes each, so that both threads write within the same millisecond again and again.
    const workers = await Promise.all(
      texts.map((text) => startTsWorker(new URL('./fixtures/atomic-writer.ts', import.meta.url), { path, text, times: 500 })),
    );
    const results = await Promise.all(
      workers.map((w) => new Promise((resolve, reject) => w.once('message', resolve).once('error', reject))),
    );
    await Promise.all(workers.map((w) => w.terminate()));
    expect(results).toEqual([{ ok: true }, { ok: true }]);
    expect(readdirSync(dir)).toEqual(['calibration.json']);
    expect(texts).toContain(readFileSync(path, 'utf8'));
  });
});
