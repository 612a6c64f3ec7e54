/**
 * `npm run perf -- --against <git-ref>`: the bench of this tree and of `ref` (checked out in a
 * git worktree), run alternately for N rounds on this machine, each into a new scratch folder
 * (so neither reuses a unit record), after one untimed run of each that fills its caches. It
 * prints, and records in reports/perf.md, the ratios this tree / ref of wall time, CPU seconds
 * and peak RSS (median, and the spread over the rounds), and beside them this tree's second run
 * into the same folder (nothing changed) over its fresh run. The machine's load is sampled during
 * the runs; a load above the core count makes every ratio doubtful, and is warned of.
 *
 * Options: --against <ref> (required), --rounds <n> (default 3), --quick (the quick bench),
 * --cold (also a cold run of this tree, empty embedding cache, over its warm fresh run),
 * --out <file> (default reports/perf.md; its "Against" section is replaced), --no-write.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../src/util/files.ts';

interface RunFigures {
  wallSeconds: number;
  cpuSeconds: number;
  peakRssMb: number | undefined;
}

interface AgainstOptions {
  ref: string;
  rounds: number;
  quick: boolean;
  cold: boolean;
  out: string | undefined;
}

const SECTION_START = '<!-- perf --against -->';
const SECTION_END = '<!-- /perf --against -->';

function parseAgainstOptions(argv: readonly string[]): AgainstOptions {
  const value = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const ref = value('--against');
  if (!ref || ref.startsWith('--')) throw new Error('perf: --against needs a git ref (a commit, tag or branch)');
  const rounds = Number(value('--rounds') ?? '3');
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20)
    throw new Error(`perf: --rounds must be an integer from 1 to 20, got ${value('--rounds')}`);
  const out = argv.includes('--no-write') ? undefined : (value('--out') ?? 'reports/perf.md');
  return { ref, rounds, quick: argv.includes('--quick'), cold: argv.includes('--cold'), out };
}

/** Samples the 1-minute load average every second while runs go on. */
class LoadSampler {
  private readonly samples: number[] = [];
  private readonly timer = setInterval(() => this.samples.push(loadavg()[0]!), 1000);

  stop(): { mean: number; max: number; samples: number } {
    clearInterval(this.timer);
    const xs = this.samples.length ? this.samples : [loadavg()[0]!];
    return { mean: xs.reduce((a, b) => a + b, 0) / xs.length, max: Math.max(...xs), samples: xs.length };
  }
}

/** CPU seconds (user + system) of this process's waited-for children so far (Linux: /proc/self/stat); undefined elsewhere. */
function childrenCpuSeconds(): number | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 16 and 17 of stat(5) (cutime, cstime), counted from field 3 here; clock ticks of 1/100 s.
  const ticks = Number(fields[13]) + Number(fields[14]);
  const hz = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
  return ticks / hz;
}

/** One bench of the tree at `root` into `out`; its wall, CPU (every process it started) and peak RSS (its timings.json). */
async function benchRun(root: string, out: string, quick: boolean, env: NodeJS.ProcessEnv = process.env): Promise<RunFigures> {
  const args = ['scripts/tooltax.mjs', ...(quick ? ['--quick'] : []), '--out', join(out, 'results'), '--reports', join(out, 'reports')];
  const cpuBefore = childrenCpuSeconds();
  const started = performance.now();
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((done) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    child.on('exit', (c) => done({ code: c, stderr: err }));
  });
  const wallSeconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`perf: the bench in ${root} failed (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
  const timings = JSON.parse(readFileSync(join(out, 'results', 'timings.json'), 'utf8')) as {
    totalCpuSeconds?: number;
    peakRssMb?: number;
  };
  const cpuAfter = childrenCpuSeconds();
  const cpuSeconds = cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : (timings.totalCpuSeconds ?? NaN);
  return { wallSeconds, cpuSeconds, peakRssMb: timings.peakRssMb };
}

/** A worktree of `ref` beside this checkout, ready to run: this tree's node_modules when the lockfiles match, else `npm ci` there. */
function checkoutRef(root: string, ref: string, log: (line: string) => void): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'tooltax-perf-against-'));
  const git = (...args: string[]) => {
    const r = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`perf: git ${args.join(' ')}: ${r.stderr.trim()}`);
  };
  git('worktree', 'add', '--detach', dir, ref);
  const remove = () => {
    spawnSync('git', ['worktree', 'remove', '--force', dir], { cwd: root });
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const lock = (d: string) => (existsSync(join(d, 'package-lock.json')) ? readFileSync(join(d, 'package-lock.json'), 'utf8') : '');
    if (lock(dir) === lock(root)) symlinkSync(resolve(root, 'node_modules'), join(dir, 'node_modules'));
    else {
      log(`perf: ${ref} has another package-lock.json: npm ci in ${dir}`);
      if (spawnSync('npm', ['ci'], { cwd: dir, stdio: 'inherit' }).status !== 0) throw new Error(`perf: npm ci failed in ${dir}`);
    }
    // The native kernel is a build output (not in git): the ref runs with the same one.
    const native = join(root, 'native', 'sgemm', 'build');
    if (existsSync(native)) cpSync(native, join(dir, 'native', 'sgemm', 'build'), { recursive: true });
    return { dir, remove };
  } catch (e) {
    remove();
    throw e;
  }
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** `0.93× (0.90–0.97)`: the median ratio and its range over the rounds. */
function ratioCell(pairs: readonly [number | undefined, number | undefined][]): string {
  const ratios = pairs.filter(([a, b]) => a !== undefined && b !== undefined && b > 0).map(([a, b]) => a! / b!);
  if (!ratios.length) return '—';
  return `${median(ratios).toFixed(2)}× (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`;
}

interface Rounds {
  here: RunFigures[];
  ref: RunFigures[];
  rerun: RunFigures[];
  cold: RunFigures[];
}

/** The rounds, alternated (this tree first in odd rounds, the ref first in even ones), each run into a new scratch folder. */
async function runRounds(opts: AgainstOptions, root: string, refDir: string, log: (line: string) => void): Promise<Rounds> {
  const scratch = mkdtempSync(join(tmpdir(), 'tooltax-perf-runs-'));
  const r: Rounds = { here: [], ref: [], rerun: [], cold: [] };
  try {
    let n = 0;
    const folder = () => join(scratch, String(n++));
    log('perf: one untimed run of each tree (fills its caches)');
    await benchRun(root, folder(), opts.quick);
    await benchRun(refDir, folder(), opts.quick);
    for (let round = 0; round < opts.rounds; round++) {
      const hereRun = async () => {
        const dir = folder();
        r.here.push(await benchRun(root, dir, opts.quick));
        // Nothing changed: the same command into the same folder.
        r.rerun.push(await benchRun(root, dir, opts.quick));
      };
      const refRun = async () => void r.ref.push(await benchRun(refDir, folder(), opts.quick));
      for (const run of round % 2 ? [refRun, hereRun] : [hereRun, refRun]) await run();
      if (opts.cold)
        r.cold.push(await benchRun(root, folder(), opts.quick, { ...process.env, TOOLTAX_CACHE_DIR: join(scratch, `cold-${round}`) }));
      log(`perf: round ${round + 1}/${opts.rounds} done`);
    }
    return r;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function reportLines(opts: AgainstOptions, r: Rounds, load: { mean: number; max: number; samples: number }): string[] {
  const cores = availableParallelism();
  const pair = (a: RunFigures[], b: RunFigures[], key: keyof RunFigures) =>
    a.map((x, i) => [x[key], b[i]![key]] as [number | undefined, number | undefined]);
  const row = (what: string, a: RunFigures[], b: RunFigures[]) =>
    `| ${what} | ${ratioCell(pair(a, b, 'wallSeconds'))} | ${ratioCell(pair(a, b, 'cpuSeconds'))} | ${ratioCell(pair(a, b, 'peakRssMb'))} |`;
  const med = (runs: RunFigures[], key: keyof RunFigures) => median(runs.map((x) => x[key] ?? NaN)).toFixed(1);
  const figures = (what: string, runs: RunFigures[]) =>
    `${what}: wall ${med(runs, 'wallSeconds')} s, CPU ${med(runs, 'cpuSeconds')} s, peak RSS ${med(runs, 'peakRssMb')} MB (medians)`;
  return [
    `## Against ${opts.ref}`,
    '',
    `\`npm run perf -- --against ${opts.ref}${opts.quick ? ' --quick' : ''} --rounds ${opts.rounds}${opts.cold ? ' --cold' : ''}\`: ${opts.quick ? 'the quick bench' : 'the full bench'}, each run into a new folder, alternated. ` +
      `Machine: ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cores} cores, Node.js ${process.version}; 1-minute load during the runs: mean ${load.mean.toFixed(1)}, max ${load.max.toFixed(1)} (${load.samples} samples).` +
      (load.max > cores ? ` **The load exceeded the core count: these ratios are doubtful.**` : ''),
    '',
    '| ratio | wall | CPU seconds | peak RSS |',
    '| --- | ---: | ---: | ---: |',
    row(`this tree / ${opts.ref}, fresh warm run`, r.here, r.ref),
    row('nothing changed: second run / fresh run (this tree)', r.rerun, r.here),
    ...(r.cold.length ? [row('cold run / fresh warm run (this tree)', r.cold, r.here)] : []),
    '',
    `${figures('This tree, fresh', r.here)}; ${figures(opts.ref, r.ref)}; ${figures('second run', r.rerun)}.`,
    '',
  ];
}

/** Replaces the Against section of `file` (or appends one). */
function writeSection(file: string, lines: readonly string[]): void {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const section = `${SECTION_START}\n${lines.join('\n')}${SECTION_END}\n`;
  const start = text.indexOf(SECTION_START);
  const end = text.indexOf(SECTION_END);
  const next =
    start >= 0 && end > start ? text.slice(0, start) + section + text.slice(end + SECTION_END.length + 1) : `${text}\n${section}`;
  writeFileAtomic(file, next);
}

/** The marked Against section of a previous perf.md, for the perf run that rewrites the file to keep. */
export function againstSection(previous: string | undefined): string | undefined {
  const start = previous?.indexOf(SECTION_START) ?? -1;
  const end = previous?.indexOf(SECTION_END) ?? -1;
  return start >= 0 && end > start ? previous!.slice(start, end + SECTION_END.length) : undefined;
}

export async function perfAgainst(argv: readonly string[], log: (line: string) => void = console.log): Promise<void> {
  const opts = parseAgainstOptions(argv);
  const root = process.cwd();
  const ref = checkoutRef(root, opts.ref, log);
  const sampler = new LoadSampler();
  let rounds: Rounds;
  let load: ReturnType<LoadSampler['stop']>;
  try {
    rounds = await runRounds(opts, root, ref.dir, log);
  } finally {
    load = sampler.stop();
    ref.remove();
  }
  const lines = reportLines(opts, rounds, load);
  for (const line of lines) log(line);
  if (load.max > availableParallelism())
    log(`perf: warning: the load (max ${load.max.toFixed(1)}) exceeded the ${availableParallelism()} cores`);
  if (opts.out) {
    writeSection(opts.out, lines);
    log(`perf: ${opts.out}`);
  }
}
