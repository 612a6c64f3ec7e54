/**
 * Every command the docs (README.md, docs/**.md) show runs as shown (scripts/doc-examples.ts
 * says how blocks are marked):
 *   - each line of a ```sh example block runs in a scratch copy of the repository (its tracked
 *     files; node_modules, the native build and .cache linked in) and must end with its status;
 *   - each line of a ```sh ci block is a step of .ci/run;
 *   - each usage form and each inline `npm run …` / `npx tsx …` names a script, file, CLI
 *     command and options that exist (read from the CLI's own --help).
 * CI runs it after the quick bench (.ci/run); the static half also runs in npm test.
 *
 *   npx tsx scripts/check-doc-examples.ts [--no-run]
 *
 * Exit codes: 0 ok; 1 a command failed or names something that does not exist.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { findChromium } from '../src/report/browser/chromium.ts';
import {
  ciProblems,
  commandProblems,
  docFiles,
  inlineCommands,
  markerProblems,
  shellBlocks,
  type CliHelp,
  type DocCommand,
  type ShellBlock,
} from './doc-examples.ts';

const ROOT = resolve(import.meta.dirname, '..');
/** A doc example is a quick command: one that takes longer is a problem in itself. */
const EXAMPLE_TIMEOUT_MS = 180_000;
/** Ignored by git but needed to run: linked into the scratch copy (the caches are keyed by content). */
const LINKED = ['node_modules', '.cache', 'native/sgemm/build'];

function cliHelp(): CliHelp {
  const help = (args: string[]) =>
    execFileSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args, '--help'], { cwd: ROOT, encoding: 'utf8' });
  const top = help([]);
  const names = [...top.slice(top.indexOf('Commands:')).matchAll(/^ {2}([a-z][\w-]*)\b/gm)].map((m) => m[1]!).filter((n) => n !== 'help');
  const defaultCommand = /^ {2}([a-z][\w-]*)\b.*\(default command\)/m.exec(top.replace(/\n {3,}/g, ' '))?.[1] ?? 'bench';
  return { commands: new Map(names.map((n) => [n, help([n])])), defaultCommand };
}

/** The tracked files, with the untracked build outputs and caches linked in. */
function scratchCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tooltax-doc-examples-'));
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of tracked) {
    if (!existsSync(join(ROOT, file))) continue; // deleted in the working tree
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file));
  }
  for (const link of LINKED) {
    if (!existsSync(join(ROOT, link))) continue;
    mkdirSync(dirname(join(dir, link)), { recursive: true });
    rmSync(join(dir, link), { recursive: true, force: true });
    symlinkSync(resolve(ROOT, link), join(dir, link));
  }
  return dir;
}

function runExample(c: DocCommand, cwd: string): string | undefined {
  const started = performance.now();
  const r = spawnSync('bash', ['-c', c.text], { cwd, encoding: 'utf8', timeout: EXAMPLE_TIMEOUT_MS, maxBuffer: 64 << 20 });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const status = r.error ? `did not finish (${r.error.message})` : `exit ${r.status ?? r.signal}`;
  if (!r.error && r.status === c.expectedExit) {
    console.log(`  ok   ${c.file}:${c.line} (${seconds} s) ${c.text}`);
    return undefined;
  }
  const tail = `${r.stdout ?? ''}${r.stderr ?? ''}`.trimEnd().split('\n').slice(-15).join('\n      ');
  console.log(`  FAIL ${c.file}:${c.line} (${seconds} s) ${c.text}\n      ${tail}`);
  return `${c.file}:${c.line}: \`${c.text}\` should exit ${c.expectedExit}, ${status}`;
}

async function main(): Promise<void> {
  const run = !process.argv.includes('--no-run');
  const files = docFiles(ROOT);
  const blocks: ShellBlock[] = files.flatMap((f) => shellBlocks(f, readFileSync(join(ROOT, f), 'utf8')));
  const inline = files.flatMap((f) => inlineCommands(f, readFileSync(join(ROOT, f), 'utf8')));
  const problems = [...markerProblems(blocks), ...ciProblems(blocks, readFileSync(join(ROOT, '.ci', 'run'), 'utf8'))];
  const repo = {
    scripts: (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts,
    exists: (p: string) => existsSync(join(ROOT, p)),
  };
  const cli = cliHelp();
  const commands = [...blocks.flatMap((b) => b.commands), ...inline];
  for (const c of commands) problems.push(...commandProblems(c, repo, cli));
  console.log(
    `check-doc-examples: ${files.length} files, ${blocks.length} shell blocks, ${commands.length} commands checked against package.json, scripts/ and the CLI's --help`,
  );
  if (run) {
    const examples = blocks.filter((b) => b.marker === 'example');
    const chromium = findChromium();
    const dir = scratchCopy();
    try {
      for (const b of examples) {
        if (b.needs.includes('chromium') && !chromium) {
          console.log(`  SKIPPED ${b.file}:${b.line}: needs Chromium, none found`);
          continue;
        }
        for (const c of b.commands.filter((x) => !x.usage)) {
          const problem = runExample(c, dir);
          if (problem) problems.push(problem);
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  for (const p of problems) console.log(`  PROBLEM ${p}`);
  console.log(problems.length ? 'check-doc-examples: FAILED' : 'check-doc-examples: ok');
  process.exitCode = problems.length ? 1 : 0;
}

await main();
