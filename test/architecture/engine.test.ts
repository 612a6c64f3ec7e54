import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PIPELINES } from '../../src/pipelines/registry.ts';
import { STUDY_IDS } from '../../src/studies/ids.ts';
import { describeFunction, functionLengths } from '../helpers/function-lengths.ts';

/**
 * The bench engine lives in src/bench, in named phases a reader can follow; src/commands keeps
 * the CLI (options, help, errors) and reaches the engine through its entry points only.
 */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

const IMPORT = /(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g;

function imports(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) =>
    m[1]!.startsWith('.') ? normalize(join(dirname(file), m[1]!)) : m[1]!,
  );
}

/** What src/commands may import from src/bench: the run, its options, and the synthetic inputs the `catalog` and `tasks` commands regenerate. */
const BENCH_ENTRY_POINTS = ['src/bench/run.ts', 'src/bench/options.ts', 'src/bench/synthetic-inputs.ts'].map(normalize);

/** Modules only the engine uses: a command importing one is running part of a bench itself. */
const ENGINE_ONLY = ['node:worker_threads', 'src/measure/run-pipeline.ts', 'src/results/write.ts', 'src/studies/registry.ts'].map((m) =>
  m.startsWith('node:') ? m : normalize(m),
);

describe('the bench engine', () => {
  const commands = sourceFiles('src/commands');
  const bench = sourceFiles('src/bench');

  it('sees the files it checks', () => {
    expect(commands.length).toBeGreaterThan(5);
    expect(bench.length).toBeGreaterThan(10);
    expect(bench.map(normalize)).toEqual(expect.arrayContaining(BENCH_ENTRY_POINTS));
  });

  it('is not in src/commands: the commands reach it through its entry points only', () => {
    const reached = commands.flatMap((file) =>
      imports(file)
        .filter((m) => (m.startsWith(normalize('src/bench/')) && !BENCH_ENTRY_POINTS.includes(m)) || ENGINE_ONLY.includes(m))
        .map((m) => `${file} → ${m}`),
    );
    expect(reached).toEqual([]);
    expect(commands.filter((f) => /bench/.test(f))).toEqual([]);
  });

  it('names no pipeline or study: what it knows of one is a field of its entry', () => {
    const ids = [...PIPELINES.map((p) => p.id), ...STUDY_IDS];
    expect(ids.length).toBeGreaterThan(40);
    const named = bench.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return ids
        .filter((id) => text.includes(`'${id}'`) || text.includes(`"${id}"`) || text.includes(`\`${id}\``))
        .map((id) => `${file}: ${id}`);
    });
    expect(named).toEqual([]);
  });

  it('runs a bench in one short function of named phases', () => {
    const run = functionLengths(normalize('src/bench/run.ts'));
    expect(run.filter((f) => f.lines > 60).map(describeFunction)).toEqual([]);
  });
});
