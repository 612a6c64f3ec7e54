import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBench } from '../../src/bench/run.ts';
import { missingTasksNote, TASK_FILE_DOCS } from '../../src/bench/missing-tasks-note.ts';
import { STUDIES } from '../../src/studies/registry.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';
import { makeTempDir } from '../helpers/temp.ts';

/**
 * `bench --catalog <dumps>` without a task file: everything that needs no tasks runs, and one
 * line says which tables a task file would add and how to write one.
 */
describe('bench on a catalog without tasks', () => {
  it('writes the tables that need no tasks and says in one line what a task file adds', async () => {
    const dir = makeTempDir('tooltax-no-tasks-');
    const log: string[] = [];
    // The run counts with counters of its own (src/util/run-scope.ts), not those of calls outside it.
    const outside = tokenCounter();
    const outsideMisses = outside.misses;
    await runBench({
      root: process.cwd(),
      seed: 42,
      seeds: [42],
      catalog: ['test/fixtures/small-catalog'],
      tokenizer: 'cl100k_base',
      out: join(dir, 'results'),
      reports: join(dir, 'reports'),
      // One study that needs tasks (the ADOL study's tables without tasks are test/studies' business).
      studies: ['projection'],
      quick: true,
      log: (line) => log.push(line),
    });
    const tables = readdirSync(join(dir, 'results', 'tables')).map((f) => f.replace(/\.json$/, ''));
    expect(tables).toEqual(expect.arrayContaining(['catalog-footprint', 'tool-breakdown', 'static-cost']));
    expect(tables).not.toContain('table3-measured');
    expect(tokenCounter()).toBe(outside);
    expect(outside.misses).toBe(outsideMisses);

    const notes = log.filter((l) => l.startsWith('no task file:'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(
      /^no task file: Table 3 \(tokens and recall per turn for each pipeline\) and the projection tables need one; add --tasks <file\.jsonl>, one task per line, e\.g\. \{"id":"t1",/,
    );
    expect(notes[0]).toContain(TASK_FILE_DOCS);

    const breakdown = JSON.parse(readFileSync(join(dir, 'results', 'tables', 'tool-breakdown.json'), 'utf8')) as {
      rows: Record<string, number>[];
    };
    expect(breakdown.rows).toHaveLength(9);
    for (const r of breakdown.rows)
      expect(r.name! + r.description! + r.inputSchema! + r.outputSchema! + r.annotations! + r.other! + r.framing!).toBe(r.tokens);
  });

  it('names the registered studies that need tasks, and not those that run without them', () => {
    const note = missingTasksNote(STUDIES);
    for (const id of ['projection', 'threshold-calibration', 'prompt-caching', 'adversarial', 'retrieval', 'router-latency'])
      expect(note).toContain(` ${id}`);
    for (const id of ['adol', 'aacp', 'kv-schema', 'scaling', 'real-suite']) expect(note).not.toMatch(new RegExp(`[ ,]${id}[ ,]`));
  });

  it('points at a section of the docs that shows the format with an example for a captured catalog', () => {
    const [file, anchor] = TASK_FILE_DOCS.split('#') as [string, string];
    const headings = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('#'))
      .map((l) =>
        l
          .replace(/^#+\s*/, '')
          .toLowerCase()
          .replace(/[^a-z0-9 -]/g, '')
          .replaceAll(' ', '-'),
      );
    expect(headings).toContain(anchor);
    const section = readFileSync(file, 'utf8')
      .split(/^#+ A task file for your catalog$/m)[1]!
      .split(/^## /m)[0]!;
    expect(section).toMatch(/npm run bench -- catalog --from-/);
    expect(section).toMatch(/"tools": \["[a-z-]+\/[a-z_]+"\]/);
  });
});
