import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runInSandbox, type SandboxLimits } from '../../src/live/sandbox.ts';
import { HOSTILE_CODE } from './hostile-code.ts';

/**
 * The sandbox's hard bounds (src/live/sandbox.ts) against hostile code: each case would run for
 * minutes, take gigabytes or abort the engine without them. No timing is asserted: a test's own
 * timeout (far under what the case runs unbounded) is what fails when a bound is missing.
 */
const LIMITS: SandboxLimits = { memoryBytes: 32 * 1024 * 1024, timeMs: 2000, outputChars: 20_000 };
/** Well under the longest case unbounded (minutes), well over the bound (the limit, a second's grace, the thread's start) on a loaded machine. */
const CASE_TIMEOUT = 20_000;

function counting() {
  const calls: unknown[] = [];
  const tools = new Map([['t', (args: unknown) => (calls.push(args), { ok: true })]]);
  return { calls, tools };
}

describe('sandbox bounds: time', () => {
  it(
    'a loop of long built-in calls ends at the deadline (the thread is ended), keeping what it printed',
    async () => {
      const code = HOSTILE_CODE.longBuiltinCalls.replace('async () => {', 'async () => { console.log("started");');
      const r = await runInSandbox(code, counting().tools, LIMITS);
      expect(r).toEqual({ ok: false, error: 'time limit: the code ran too long', logs: ['started'] });
    },
    CASE_TIMEOUT,
  );

  it(
    'an argument whose toJSON never ends is a time limit, and the tool is never called',
    async () => {
      const { calls, tools } = counting();
      const r = await runInSandbox(HOSTILE_CODE.endlessToJSON, tools, LIMITS);
      expect(r).toMatchObject({ ok: false, error: 'time limit: the code ran too long' });
      expect(calls).toEqual([]);
    },
    CASE_TIMEOUT,
  );

  it(
    'a result whose getter never ends is a time limit, not a placeholder value',
    async () => {
      const r = await runInSandbox(HOSTILE_CODE.endlessGetter, counting().tools, LIMITS);
      expect(r).toMatchObject({ ok: false, error: 'time limit: the code ran too long' });
    },
    CASE_TIMEOUT,
  );

  it(
    'a loop of tool calls stops calling at the deadline',
    async () => {
      const { calls, tools } = counting();
      const r = await runInSandbox('async () => { for (;;) await t({}); }', tools, LIMITS);
      expect(r).toMatchObject({ ok: false, error: 'time limit: the code ran too long' });
      // Calls happened, and then stopped: a second run starts from none.
      expect(calls.length).toBeGreaterThan(0);
      const made = calls.length;
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(calls.length).toBe(made);
    },
    CASE_TIMEOUT,
  );
});

describe('sandbox bounds: arguments and names', () => {
  it('passes the argument as the code gave it (no argument: undefined), and a tool error is thrown inside the code', async () => {
    const { calls, tools } = counting();
    tools.set('bad', () => {
      throw new Error('{"error":"invalid_arguments"}');
    });
    const r = await runInSandbox(
      'async () => { await t("abc"); await t(null); await t([1]); await codemode.t(); try { await bad({}); } catch (e) { return e.message; } }',
      tools,
      LIMITS,
    );
    expect(r).toEqual({ ok: true, result: '{"error":"invalid_arguments"}', logs: [] });
    expect(calls).toEqual(['abc', null, [1], undefined]);
  });

  it('an argument over 1 MiB of JSON never reaches the tool', async () => {
    const { calls, tools } = counting();
    const r = await runInSandbox('async () => t({ s: "x".repeat(2 * 1024 * 1024) })', tools, LIMITS);
    expect(r).toMatchObject({ ok: false, error: expect.stringMatching(/^Error: argument limit/) });
    expect(calls).toEqual([]);
  });

  it('a codemode name that is no tool goes to the unknownTool hook', async () => {
    const unknown: string[] = [];
    const r = await runInSandbox('async () => codemode.nope({ a: 1 })', counting().tools, LIMITS, {
      unknownTool: (name) => {
        unknown.push(name);
        throw new Error('unknown_tool');
      },
    });
    expect(r).toMatchObject({ ok: false, error: 'Error: unknown_tool' });
    expect(unknown).toEqual(['nope']);
  });
});

describe('sandbox bounds: memory and stack', () => {
  it('an allocation bomb, 800 large arrays and deep recursion end as tool errors; the process stays under 1 GB and prints nothing', async () => {
    // A process of its own, so its peak resident memory is the sandbox's doing alone.
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', join('test', 'live', 'sandbox-bounds-child.ts')],
      { timeout: 110_000, maxBuffer: 1024 * 1024 },
    );
    expect(stderr).toBe('');
    const { outcomes, maxRssBytes } = JSON.parse(stdout) as {
      outcomes: Record<string, { ok: boolean; error?: string }>;
      maxRssBytes: number;
    };
    expect(outcomes.allocationBomb).toMatchObject({ ok: false, error: expect.stringMatching(/^(memory|time) limit/) });
    expect(outcomes.manyArrays).toMatchObject({ ok: false, error: expect.stringMatching(/^(memory|time) limit/) });
    expect(outcomes.deepRecursion).toMatchObject({ ok: false, error: expect.stringMatching(/stack/) });
    expect(outcomes.afterwards).toEqual({ ok: true, result: { ok: true }, logs: [] });
    expect(maxRssBytes).toBeGreaterThan(0);
    expect(maxRssBytes).toBeLessThan(1024 ** 3);
  }, 120_000);
});
