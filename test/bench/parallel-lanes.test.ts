import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBench } from '../../src/bench/run.ts';
import { checkCompleteRun } from '../../src/results/run-files.ts';
import { resultFiles, smallTaskFile } from '../helpers/result-files.ts';
import { smallBenchOptions } from '../helpers/small-runs.ts';

/** Retrieval and non-retrieval main methods, an ablation and an ADOL variant. */
const PIPELINE_IDS = ['b1-full-schema', 'b3-simple-retrieval', 'tool-attention', 'ta-k5', 'adol-combined'];

const tmp = mkdtempSync(join(tmpdir(), 'tooltax-lanes-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('bench lanes', () => {
  it('writes byte-identical results with 1 lane (serial) and 2 lanes (worker thread)', async () => {
    // A small subset of the committed tasks: two of each kind.
    const tasksFile = smallTaskFile(join(tmp, 'tasks.jsonl'));
    const run = (lanes: number) =>
      // TF-IDF and BM25: the test measures the lanes, not the encoder or the training.
      runBench(
        smallBenchOptions(tasksFile, {
          out: join(tmp, `lanes${lanes}`, 'results'),
          reports: join(tmp, `lanes${lanes}`, 'reports'),
          pipelines: PIPELINE_IDS,
          studies: ['projection', 'prompt-caching'],
          lanes,
          log: (l) => process.env.LANES_LOG && console.log(l),
        }),
      );
    await run(1);
    await run(2);
    const serial = resultFiles(join(tmp, 'lanes1', 'results'));
    const parallel = resultFiles(join(tmp, 'lanes2', 'results'));
    expect([...parallel.keys()]).toEqual([...serial.keys()]);
    expect(serial.size).toBeGreaterThan(PIPELINE_IDS.length * 2); // turn records and events of every pipeline, tables, manifest
    for (const [file, text] of serial) expect(parallel.get(file), file).toBe(text);
    // The manifest's hashes (taken in the lanes as the files were written) are those of the files.
    for (const lanes of ['lanes1', 'lanes2']) expect(checkCompleteRun(join(tmp, lanes, 'results')).files!.length).toBeGreaterThan(0);
    const lanesOf = (dir: string) => {
      const timings = JSON.parse(readFileSync(join(tmp, dir, 'results', 'timings.json'), 'utf8')) as {
        steps: { unit?: { lane: number } }[];
      };
      return timings.steps.flatMap((s) => (s.unit ? [s.unit.lane] : []));
    };
    expect(lanesOf('lanes1')).toEqual(new Array(PIPELINE_IDS.length + 2).fill(0));
    // Both lanes did work: the worker thread's units are among those compared above.
    expect(new Set(lanesOf('lanes2'))).toEqual(new Set([0, 1]));
    expect(readFileSync(join(tmp, 'lanes2', 'reports', 'tables.md'), 'utf8')).toBe(
      readFileSync(join(tmp, 'lanes1', 'reports', 'tables.md'), 'utf8'),
    );
  });
});
