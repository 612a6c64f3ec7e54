import { runInSandbox, type SandboxOutcome } from '../../src/live/sandbox.ts';
import { HOSTILE_CODE } from './hostile-code.ts';

/**
 * Run by test/live/sandbox-bounds.test.ts in a process of its own: the memory and stack cases of
 * the hostile code, one after another, then one ordinary run. Prints one JSON line: each
 * outcome and this process's peak resident memory (threads included), so the test can check
 * the bound on the whole process, and its stderr for anything the engine printed.
 */
const tools = new Map([['t', () => ({ ok: true })]]);
const outcomes: Record<string, SandboxOutcome> = {};
for (const name of ['allocationBomb', 'manyArrays', 'deepRecursion'] as const)
  outcomes[name] = await runInSandbox(HOSTILE_CODE[name], tools);
outcomes.afterwards = await runInSandbox('async () => t({})', tools);
console.log(JSON.stringify({ outcomes, maxRssBytes: process.resourceUsage().maxRSS * 1024 }));
