import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeEvents, writeTurnRecords } from '../../src/results/write.ts';
import { makeTempDir } from '../helpers/temp.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('turn records and events as JSON Lines', () => {
  it('writes one JSON text per line, over several chunks, with the hash of the bytes on disk', () => {
    const dir = makeTempDir();
    // About 3 MB with non-ASCII text: more than one chunk, and characters of several UTF-8 lengths.
    const records = Array.from({ length: 6000 }, (_, i) => ({ turn: i, text: `é → 工具 ${'x'.repeat(480)} ${i}` }));
    const file = writeTurnRecords(dir, 'b1', 42, records);
    const bytes = readFileSync(join(dir, 'turns', 'b1.seed42.jsonl'));
    expect(bytes.toString('utf8')).toBe(`${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    expect(file).toEqual({ path: 'turns/b1.seed42.jsonl', sha256: sha256(bytes) });
  });

  it('writes one empty line for no records, and no file for no events', () => {
    const dir = makeTempDir();
    const file = writeTurnRecords(dir, 'b1', 42, []);
    const bytes = readFileSync(join(dir, 'turns', 'b1.seed42.jsonl'));
    expect(bytes.toString('utf8')).toBe('\n');
    expect(file.sha256).toBe(sha256(bytes));
    expect(writeEvents(dir, 'b1', 42, [])).toBeUndefined();
  });
});
