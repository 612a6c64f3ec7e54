/**
 * Hostile model-written code for the sandbox's tests (src/live/sandbox.ts): each piece would
 * run far longer than any test allows, or take gigabytes, or overflow the host's stack, if the
 * sandbox had no bound for it. `t` is the one tool the tests give the code.
 */
export const HOSTILE_CODE = {
  /** One built-in call on a 1 MB string per iteration: QuickJS checks its interrupt handler only between operations. */
  longBuiltinCalls:
    'async () => { const s = "a".repeat(1 << 20); let n = 0; for (let i = 0; i < 30000; i++) n += s.indexOf("b"); return n; }',
  /** A tool argument whose serialisation never ends. */
  endlessToJSON: 'async () => { await t({ toJSON() { for (;;) {} } }); return "called"; }',
  /** A result whose serialisation never ends. */
  endlessGetter: 'async () => ({ get x() { for (;;) {} } })',
  /** Grows the engine's memory without end (gigabytes when only QuickJS's own count bounds it). */
  allocationBomb: 'async () => { const keep = []; for (;;) keep.push(new Array(1e6).fill(1)); }',
  /** 800 arrays of 1e5 elements, far over the memory limit. */
  manyArrays: 'async () => { const a = []; for (let i = 0; i < 800; i++) a.push(new Array(1e5).fill(i)); return a.length; }',
  /** Unbounded recursion (it aborted the engine, and printed on stderr, when the host's stack ran out first). */
  deepRecursion: 'async () => { const f = (n) => f(n + 1) + 1; return f(0); }',
} as const;
