import { describe, expect, it } from 'vitest';
import { runInSandbox, type SandboxLimits, type SandboxTool } from '../../src/live/sandbox.ts';

/**
 * Hostile model-written code in the live sandbox (src/live/sandbox.ts): each attempt ends as a
 * tool error within the limits, the next run works, and nothing outside the sandbox changes.
 */
const LIMITS: SandboxLimits = { memoryBytes: 8 * 1024 * 1024, timeMs: 1000, outputChars: 5000 };
const calls: unknown[] = [];
const tools = new Map<string, SandboxTool>([
  [
    'github_get_issue',
    (args) => {
      calls.push(args);
      return { number: 7, state: 'open' };
    },
  ],
]);

async function expectToolError(code: string, pattern: RegExp): Promise<void> {
  const envBefore = JSON.stringify(process.env);
  const started = Date.now();
  const r = await runInSandbox(code, tools, LIMITS);
  expect(r.ok, JSON.stringify(r).slice(0, 300)).toBe(false);
  if (!r.ok) expect(r.error).toMatch(pattern);
  // Bounded: the time limit plus the engine's slack on a loaded machine.
  expect(Date.now() - started).toBeLessThan(60_000);
  // Nothing outside changed, and the next run works.
  expect(JSON.stringify(process.env)).toBe(envBefore);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  const next = await runInSandbox('async () => (await codemode.github_get_issue({ number: 7 })).state', tools, LIMITS);
  expect(next).toEqual({ ok: true, result: 'open', logs: [] });
}

describe('hostile code in the sandbox', () => {
  it('an endless loop ends at the time limit', () => expectToolError('async () => { while (true) {} }', /time limit/));

  it('a memory bomb ends at the memory or time limit', () =>
    expectToolError('async () => { const a = []; while (true) a.push(new Array(1e5).fill(1)); }', /memory limit|time limit/));

  it('require, process, fetch and import() are not there', async () => {
    await expectToolError('async () => require("fs").readFileSync("/etc/passwd", "utf8")', /require/);
    await expectToolError('async () => process.exit(1)', /process/);
    await expectToolError('async () => (await fetch("http://example.com")).text()', /fetch/);
    await expectToolError('async () => (await import("node:fs")).readFileSync("/etc/passwd")', /module/);
  });

  it('prototype tampering stays inside one run', async () => {
    const tampered = await runInSandbox(
      'async () => { Object.prototype.polluted = 1; Array.prototype.push = null; JSON.parse = () => 0; return ({}).polluted; }',
      tools,
      LIMITS,
    );
    expect(tampered).toEqual({ ok: true, result: 1, logs: [] });
    await expectToolError('async () => { throw new Error("after tampering") }', /after tampering/);
  });

  it('giant output ends at the output limit', async () => {
    await expectToolError('async () => { for (;;) console.log("spam".repeat(100)); }', /output limit/);
    await expectToolError('async () => "x".repeat(100000)', /output limit/);
  });

  it('a promise that never settles, and a syntax error, are tool errors', async () => {
    await expectToolError('async () => new Promise(() => {})', /never finished/);
    await expectToolError('async () => { (', /SyntaxError/);
  });

  it('tools are called with the code’s arguments', async () => {
    calls.length = 0;
    const r = await runInSandbox('const i = await github_get_issue({ number: 3 }); console.log(i.state);', tools, LIMITS);
    expect(r).toEqual({ ok: true, result: undefined, logs: ['open'] });
    expect(calls).toEqual([{ number: 3 }]);
  });
});
