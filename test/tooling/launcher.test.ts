import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BENCH_RUNTIME, launchPlan } from '../../scripts/tooltax.mjs';

/**
 * The npm scripts' launcher (scripts/tooltax.mjs): no shell syntax in package.json, the bench's
 * runtime flags for the bench only, and the CLI's exit status passed through.
 */
const run = promisify(execFile);

describe('npm scripts', () => {
  it('run on any shell npm supports: node and a script, no variables, no exec', () => {
    const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.bench).toBe('node scripts/tooltax.mjs');
    expect(scripts.report).toBe('node scripts/tooltax.mjs report');
    for (const [name, line] of Object.entries(scripts)) expect(line, name).not.toMatch(/(^|\s)[A-Z_]+=|\bexec\b|\$\{?[A-Z]/);
  });
});

describe('launchPlan', () => {
  const flagsOf = (args: string[]) => launchPlan(args, {}).nodeArgs.slice(0, -args.length - 3);

  it('gives the bench (the default command) its heap cap, and V8 and glibc their defaults otherwise', () => {
    for (const args of [[], ['--quick'], ['bench', '--quick'], ['--debug', '--catalog', 'x']]) {
      const plan = launchPlan(args, { PATH: '/bin' });
      expect(plan.bench, args.join(' ')).toBe(true);
      expect(flagsOf(args)).toEqual(BENCH_RUNTIME.nodeFlags);
      expect(plan.env).toEqual({ PATH: '/bin', ...BENCH_RUNTIME.env });
      expect(plan.nodeArgs.slice(-args.length - 3, -args.length || undefined)).toEqual([
        '--import',
        'tsx',
        expect.stringMatching(/src[/\\]cli\.ts$/),
      ]);
    }
    expect(BENCH_RUNTIME.nodeFlags).toEqual(['--max-old-space-size=1024']);
    expect(BENCH_RUNTIME.env).toEqual({});
  });

  it('starts the other commands with node defaults and the environment as it is', () => {
    for (const command of ['catalog', 'budget', 'tasks', 'report', 'retrieval', 'live']) {
      const plan = launchPlan(['--debug', command, '--x'], { PATH: '/bin' });
      expect(plan.bench, command).toBe(false);
      expect(plan.nodeArgs.slice(0, 2)).toEqual(['--import', 'tsx']);
      expect(plan.env).toEqual({ PATH: '/bin' });
    }
  });

  it('passes the CLI exit status and its one-line error through', async () => {
    const r = await run(process.execPath, ['scripts/tooltax.mjs', '--pipelines', 'nope']).catch((e: { code: number; stderr: string }) => e);
    expect('code' in r ? r.code : 0).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^error: option '--pipelines <ids>' argument 'nope' is invalid\. unknown pipeline "nope"/),
    ]);
  });
});
