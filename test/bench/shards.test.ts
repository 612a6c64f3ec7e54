import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBench, type BenchOptions } from '../../src/bench/run.ts';
import { checkParts, readPart } from '../../src/results/shard-part.ts';
import { checkCompleteRun } from '../../src/results/run-files.ts';
import { resultFiles, smallTaskFile } from '../helpers/result-files.ts';
import { smallBenchOptions } from '../helpers/small-runs.ts';

const tmp = mkdtempSync(join(tmpdir(), 'tooltax-shards-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const tasksFile = smallTaskFile(join(tmp, 'tasks.jsonl'), 1);
/** A run small enough to repeat six times: every kind of unit (pipelines of every seed and of one, independent studies, a study of the results). */
const base: BenchOptions = smallBenchOptions(tasksFile, {
  pipelines: ['b1-full-schema', 'b3-simple-retrieval', 'b4-cli-lazy', 'ta-k5'],
  studies: ['projection', 'prompt-caching', 'aacp'],
  lanes: 1,
});
const dir = (name: string) => join(tmp, name);

async function shardedRun(count: number): Promise<string[]> {
  const folders: string[] = [];
  for (let index = 1; index <= count; index++) {
    const out = dir(`of${count}-part${index}`);
    await runBench({ ...base, shard: { index, count }, out });
    folders.push(out);
  }
  return folders;
}

async function merge(folders: string[], name: string): Promise<void> {
  const parts = folders.map((f) => readPart(f));
  checkParts(parts);
  await runBench({ ...base, parts, out: dir(`${name}/results`), reports: dir(`${name}/reports`) });
}

describe('sharded bench', () => {
  let two: string[] = [];
  let three: string[] = [];

  it('merges 2 and 3 shards into results identical to an unsharded run (timings masked)', async () => {
    await runBench({ ...base, out: dir('whole/results'), reports: dir('whole/reports') });
    two = await shardedRun(2);
    three = await shardedRun(3);
    // Every shard ran something, and no unit ran twice.
    const units = three.map((f) => readPart(f).units);
    expect(units.every((u) => u.length > 0)).toBe(true);
    expect(new Set(units.flat()).size).toBe(units.flat().length);
    await merge(two, 'merged2');
    await merge(three, 'merged3');
    const whole = resultFiles(dir('whole/results'));
    expect(whole.size).toBeGreaterThan(10);
    for (const name of ['merged2', 'merged3']) {
      const merged = resultFiles(dir(`${name}/results`));
      expect([...merged.keys()], name).toEqual([...whole.keys()]);
      for (const [file, text] of whole) expect(merged.get(file), `${name}: ${file}`).toBe(text);
      expect(checkCompleteRun(dir(`${name}/results`)).files!.length).toBeGreaterThan(0);
    }
  });

  it('refuses a missing, repeated, foreign or altered part in one line', async () => {
    const line = (f: () => void) => {
      try {
        f();
      } catch (e) {
        return (e as Error).message;
      }
      throw new Error('no error');
    };
    const read = (folders: string[]) => () => checkParts(folders.map((f) => readPart(f)));
    expect(line(read([two[0]!]))).toMatch(/shard 2\/2 missing/);
    expect(line(read([two[0]!, two[0]!]))).toMatch(/shard 1\/2 again/);
    expect(line(read([two[0]!, three[1]!]))).toMatch(/\$\.shard\.count/);
    expect(line(read([dir('whole/results')]))).toMatch(/no shard\.json/);
    // A part of another run (other settings), and a part whose file changed after it was written.
    const other = dir('other-seed');
    await runBench({ ...base, seed: 7, seeds: [7], shard: { index: 2, count: 2 }, out: other });
    expect(line(read([two[0]!, other]))).toMatch(/\$\.run\.(inputs|settings)/);
    const altered = dir('altered');
    cpSync(two[1]!, altered, { recursive: true });
    const listed = readPart(altered).files.find((f) => f.path.startsWith('turns/'))!.path;
    writeFileSync(join(altered, ...listed.split('/')), '{}\n', { flag: 'a' });
    expect(line(read([two[0]!, altered]))).toMatch(/changed file/);
    for (const message of [line(read([two[0]!])), line(read([two[0]!, altered]))]) expect(message).not.toContain('\n');
  });
});
