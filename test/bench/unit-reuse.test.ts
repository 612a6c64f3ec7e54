import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBench, type BenchOptions } from '../../src/bench/run.ts';
import { resultFiles, smallTaskFile } from '../helpers/result-files.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { reuseOptions } from './fixtures/reuse-registry.ts';

/**
 * A run restores every unit whose record in the results folder has its fingerprint (the same
 * code, inputs, options and results read), runs the others, and says which; `--fresh` runs all.
 * Three pipelines and three studies of test/bench/fixtures/reuse-registry.ts, in one lane.
 */
const dir = makeTempDir('tooltax-unit-reuse-');
smallTaskFile(join(dir, 'tasks.jsonl'), 1);

const ALL = [
  'pipeline b1-full-schema',
  'pipeline b2-static-pruning',
  'pipeline b4-cli-lazy',
  'study turn-count',
  'study sizes',
  'study suite-lines',
].sort();
const STUDIES = ALL.filter((u) => u.startsWith('study'));

/** Runs the fixture bench into `out`; returns the units it ran and those it restored (its log lines). */
async function run(out: string, more: Partial<BenchOptions> = {}): Promise<{ ran: string[]; reused: string[] }> {
  const log: string[] = [];
  await runBench(reuseOptions(dir, out, { ...more, log: (line) => log.push(line) }));
  return { ran: unitsIn(log, 'running'), reused: unitsIn(log, 'reused') };
}

function unitsIn(log: readonly string[], what: string): string[] {
  const line = log.find((l) => l.startsWith(`${what} `));
  if (!line) throw new Error(`no "${what}" line in the run's log`);
  const names = line.split(': ')[1];
  return names ? names.split(', ').sort() : [];
}

/** The steps of the run that last wrote `folder` (its timings.json). */
const steps = (folder: string) =>
  (JSON.parse(readFileSync(join(folder, 'timings.json'), 'utf8')) as { steps: { step: string }[] }).steps.map((s) => s.step);

/** Every file under `folder` by path, as bytes (run.json without its clock; timings.json left out). */
function bytesOf(folder: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    const path = relative(folder, join(e.parentPath, e.name));
    if (!e.isFile() || path === 'timings.json') continue;
    let text = readFileSync(join(folder, path)).toString('base64');
    if (path === 'run.json') {
      const { startedAt, finishedAt, seconds, ...rest } = JSON.parse(readFileSync(join(folder, path), 'utf8')) as Record<string, unknown>;
      expect([typeof startedAt, typeof finishedAt, typeof seconds]).toEqual(['string', 'string', 'number']);
      text = JSON.stringify(rest);
    }
    out.set(path, text);
  }
  return out;
}

describe('unit records: reuse, --fresh, resume', () => {
  const out = join(dir, 'results');

  it('a second run restores every unit, and its files are byte for byte the first run’s', async () => {
    const first = await run(out);
    expect(first).toEqual({ ran: ALL, reused: [] });
    expect(steps(out)).toContain('embeddings');
    const before = bytesOf(out);
    expect([...before.keys()].filter((p) => p.startsWith('units/'))).toHaveLength(ALL.length);
    const second = await run(out);
    expect(second).toEqual({ ran: [], reused: ALL });
    // Nothing runs, so nothing is embedded or trained up front.
    expect(steps(out)).not.toContain('embeddings');
    expect(bytesOf(out)).toEqual(before);
  });

  it('--fresh runs every unit, into results equal to the restored ones but for wall-clock latencies', async () => {
    const fresh = join(dir, 'fresh');
    expect(await run(fresh, { fresh: true })).toEqual({ ran: ALL, reused: [] });
    // Into a folder that has every record, --fresh still runs all.
    expect(await run(out, { fresh: true })).toEqual({ ran: ALL, reused: [] });
    expect(resultFiles(fresh)).toEqual(resultFiles(out));
  });

  it("changing one pipeline's file runs that pipeline and the studies given it, nothing else", async () => {
    appendFileSync(join(dir, 'b2.ts'), '// changed\n');
    const r = await run(out);
    // turn-count reads its results and suite-lines is given every pipeline (StudyContext.pipelines);
    // sizes is given none (Study.pipelinesGiven).
    expect(r).toEqual({
      ran: ['pipeline b2-static-pruning', 'study suite-lines', 'study turn-count'],
      reused: ['pipeline b1-full-schema', 'pipeline b4-cli-lazy', 'study sizes'],
    });
    expect(await run(out)).toEqual({ ran: [], reused: ALL });
  });

  it("changing one study's file runs that study alone", async () => {
    appendFileSync(join(dir, 'suite-lines.ts'), '// changed\n');
    expect((await run(out)).ran).toEqual(['study suite-lines']);
  });

  it("changing the study of the pipelines' results alone runs it on their records read back from theirs", async () => {
    await run(out);
    const counts = readFileSync(join(out, 'tables', 'turn-count.json'), 'utf8');
    expect(JSON.parse(counts).rows.every((row: { value: number }) => row.value > 0)).toBe(true);
    appendFileSync(join(dir, 'turn-count.ts'), '// changed\n');
    expect((await run(out)).ran).toEqual(['study turn-count']);
    expect(readFileSync(join(out, 'tables', 'turn-count.json'), 'utf8')).toBe(counts);
  });

  it("a unit's file deleted or changed since its record is written back when the unit is restored", async () => {
    await run(out);
    const before = bytesOf(out);
    const turns = readdirSync(join(out, 'turns')).map((f) => join(out, 'turns', f));
    rmSync(turns[0]!);
    appendFileSync(turns[1]!, 'not a record\n');
    expect((await run(out)).ran).toEqual([]);
    expect(bytesOf(out)).toEqual(before);
  });

  it('changing one option runs the units it reaches: --scaling-sizes reaches the study that takes it', async () => {
    const r = await run(out, { scalingSizes: [30, 60] });
    expect(r.ran).toEqual(['study sizes']);
    const sizes = JSON.parse(readFileSync(join(out, 'tables', 'sizes.json'), 'utf8')) as { rows: { value: number }[] };
    expect(sizes.rows.map((row) => row.value)).toEqual([30, 60]);
    // The tokenizer reaches every unit.
    expect((await run(out, { scalingSizes: [30, 60], tokenizer: 'o200k_base' })).ran).toEqual(ALL);
  });

  it("changing one input runs the units that read it: a suite's data file reaches the studies, not the pipelines", async () => {
    await run(out);
    appendFileSync(join(dir, 'suite-tasks.jsonl'), '{"line":2}\n');
    expect(await run(out)).toEqual({ ran: STUDIES, reused: ALL.filter((u) => u.startsWith('pipeline')) });
    const lines = JSON.parse(readFileSync(join(out, 'tables', 'suite-lines.json'), 'utf8')) as { rows: { value: number }[] };
    expect(lines.rows.map((row) => row.value)).toEqual([2]);
  });

  it('a run killed with SIGKILL after its pipelines resumes: the next run restores them and runs the rest', async () => {
    const killed = join(dir, 'killed');
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/bench/fixtures/reuse-run.ts', dir, killed], {
      env: { ...process.env, TOOLTAX_TEST_HANG: 'turn-count' },
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_, signal) => resolve(signal)));
    // The study of the results hangs: once the three pipelines are recorded, nothing else will be.
    const pipelinesRecorded = () =>
      ['b1-full-schema', 'b2-static-pruning', 'b4-cli-lazy'].every((id) => existsSync(join(killed, 'units', `pipeline.${id}.v8.gz`)));
    const deadline = Date.now() + 90_000;
    while (!pipelinesRecorded() && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
    expect(pipelinesRecorded()).toBe(true);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(existsSync(join(killed, 'run.json'))).toBe(false);
    const recorded = readdirSync(join(killed, 'units')).filter((f) => statSync(join(killed, 'units', f)).isFile());
    const resumed = await run(killed);
    // What the killed run recorded is restored (the independent studies may have finished before the kill too).
    expect(resumed.reused).toEqual(ALL.filter((u) => recorded.includes(`${u.replace(' ', '.')}.v8.gz`)));
    expect(resumed.ran).toContain('study turn-count');
    expect(resumed.reused).toEqual(
      expect.arrayContaining(['pipeline b1-full-schema', 'pipeline b2-static-pruning', 'pipeline b4-cli-lazy']),
    );
    expect(resultFiles(killed)).toEqual(resultFiles(out));
  }, 120_000);
});
