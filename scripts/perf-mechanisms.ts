/**
 * The mechanism part of `npm run perf`: what each setting of docs/performance.md buys on this
 * machine. The bench runs as a user runs it (`scripts/tooltax.mjs`, into scratch folders) with
 * everything at its default, then once with each mechanism switched off, the runs alternated in
 * rounds so that a change in the machine's load hits each alike. Each run gives its wall time
 * (the whole process), its CPU time and its peak RSS (the run's own timings.json). A mechanism
 * that buys nothing here shows it, and is a candidate for removal. The quick bench by default;
 * `full` runs the whole default bench, the one the budgets are for.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Mechanism {
  name: string;
  /** What "off" means, in a few words. */
  off: string;
  /** The environment of the run without it (merged over the default run's). */
  env?: Record<string, string>;
  /** The embedding cache starts empty in both runs: the mechanism acts on a cold run's embedding. */
  cold?: boolean;
}

const MECHANISMS: readonly Mechanism[] = [
  { name: 'lanes (one per core, at most three)', off: 'one lane', env: { TOOLTAX_BENCH_WORKERS: '1' } },
  { name: 'kept learned and dense scores (.cache/retrieval)', off: 'scores computed again', env: { TOOLTAX_KEEP_SCORES: '0' } },
  {
    name: 'embedding workers (TOOLTAX_EMBED_WORKERS=2), cold embedding cache',
    off: 'embedding in the main thread',
    env: { TOOLTAX_EMBED_WORKERS: '0' },
    cold: true,
  },
];

export type BenchSize = 'quick' | 'full';

interface RunFigures {
  wallSeconds: number;
  cpuSeconds: number;
  peakRssMb: number;
}

/** One quick bench into a scratch folder; its figures, or the reason it failed. */
function benchRun(size: BenchSize, mechanism: Mechanism | undefined, cold: boolean): RunFigures {
  const scratch = mkdtempSync(join(tmpdir(), 'tooltax-perf-'));
  try {
    const out = join(scratch, 'results');
    const args = [...(size === 'quick' ? ['--quick'] : []), '--out', out, '--reports', join(scratch, 'reports')];
    const command = ['scripts/tooltax.mjs', ...args];
    const env = {
      ...process.env,
      ...(mechanism?.env ?? {}),
      ...(cold ? { TOOLTAX_CACHE_DIR: join(scratch, 'embeddings') } : {}),
    };
    const started = performance.now();
    const run = spawnSync(process.execPath, command, { env, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
    const wallSeconds = (performance.now() - started) / 1000;
    if (run.status !== 0)
      throw new Error(
        `perf: the ${size} bench${mechanism ? ` without ${mechanism.name}` : ''} failed: ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`,
      );
    const timings = JSON.parse(readFileSync(join(out, 'timings.json'), 'utf8')) as { totalCpuSeconds?: unknown; peakRssMb?: unknown };
    if (typeof timings.totalCpuSeconds !== 'number' || typeof timings.peakRssMb !== 'number')
      throw new Error(`perf: ${join(out, 'timings.json')}: expected totalCpuSeconds and peakRssMb numbers`);
    return { wallSeconds, cpuSeconds: timings.totalCpuSeconds, peakRssMb: timings.peakRssMb };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const medianOf = (runs: RunFigures[]): RunFigures => ({
  wallSeconds: median(runs.map((r) => r.wallSeconds)),
  cpuSeconds: median(runs.map((r) => r.cpuSeconds)),
  peakRssMb: median(runs.map((r) => r.peakRssMb)),
});

/** Lines of the mechanisms table: `rounds` rounds of (default, each mechanism off), medians per cell. */
export function mechanismTable(rounds: number, size: BenchSize, log: (line: string) => void = () => {}): string[] {
  const warm: RunFigures[] = [];
  const coldDefault: RunFigures[] = [];
  const off = new Map<string, RunFigures[]>(MECHANISMS.map((m) => [m.name, []]));
  // One quick run first, so the warm runs find every cache filled.
  benchRun(size, undefined, false);
  for (let round = 0; round < rounds; round++) {
    warm.push(benchRun(size, undefined, false));
    if (MECHANISMS.some((m) => m.cold)) coldDefault.push(benchRun(size, undefined, true));
    for (const m of MECHANISMS) {
      off.get(m.name)!.push(benchRun(size, m, m.cold === true));
      log(`perf: mechanisms round ${round + 1}/${rounds}: ${m.name} done`);
    }
  }
  const on = { warm: medianOf(warm), cold: coldDefault.length ? medianOf(coldDefault) : undefined };
  const change = (withIt: number, without: number) => `${without >= withIt ? '+' : '−'}${Math.abs(without - withIt).toFixed(1)}`;
  return [
    `${size === 'quick' ? 'The quick bench (`npm run bench -- --quick`' : 'The full bench (`npm run bench`'}, scratch folders), ${rounds} round(s) of one run with every mechanism and one without each, alternated; medians. ` +
      `"Without" columns say what switching the mechanism off costs (+) or saves (−): a mechanism earns its place when a cost shows here.`,
    '',
    '| mechanism | switched off | wall s with | wall s without | CPU s with | CPU s without | peak MB with | peak MB without |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...MECHANISMS.map((m) => {
      const base = m.cold ? on.cold! : on.warm;
      const without = medianOf(off.get(m.name)!);
      return `| ${m.name} | ${m.off} | ${base.wallSeconds.toFixed(1)} | ${without.wallSeconds.toFixed(1)} (${change(base.wallSeconds, without.wallSeconds)}) | ${base.cpuSeconds.toFixed(1)} | ${without.cpuSeconds.toFixed(1)} (${change(base.cpuSeconds, without.cpuSeconds)}) | ${base.peakRssMb.toFixed(0)} | ${without.peakRssMb.toFixed(0)} (${change(base.peakRssMb, without.peakRssMb)}) |`;
    }),
    '',
  ];
}
