import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { MessageChannel, receiveMessageOnPort, type ResourceLimits, type Worker } from 'node:worker_threads';
import type * as QuickJs from 'quickjs-emscripten';
import { importOptional, requireOptional } from '../util/optional-package.ts';
import { startTsWorker } from '../util/ts-worker.ts';
import type { FromSandbox, SandboxLimits, SandboxSetup, ToolAnswer } from './sandbox-worker.ts';

export type { SandboxLimits } from './sandbox-worker.ts';

const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { memoryBytes: 32 * 1024 * 1024, timeMs: 2000, outputChars: 20_000 };

/**
 * A tool the code may call: takes the argument (undefined when none was given, else any JSON
 * value, as the code passed it), returns the result's JSON-able value; throws for a tool error.
 */
export type SandboxTool = (args: unknown) => unknown;

export interface SandboxHooks {
  /** Called for `codemode.<name>` where no tool has that name (throws the tool error); default: an error. */
  unknownTool?: (name: string, args: unknown) => unknown;
}

export type SandboxOutcome = { ok: true; result: unknown; logs: string[] } | { ok: false; error: string; logs: string[] };

/** After the deadline, how long the engine has to stop by its own interrupt before its thread is ended. */
const GRACE_MS = 1000;
/** The thread and engine's start (not part of the code's time): generous, for a loaded machine. */
const START_MS = 60_000;
/** The thread's own V8 heap holds only the engine's glue and the messages (bounded by the output limit). */
const THREAD_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8, stackSizeMb: 4 };
const TIME_LIMIT = 'time limit: the code ran too long';

/**
 * Runs model-written code in QuickJS compiled to WebAssembly (`quickjs-emscripten`), on a worker
 * thread of its own (./sandbox-worker.ts) that this thread ends at the deadline whatever the
 * code is doing: inside one long built-in call (where QuickJS never checks its interrupt
 * handler), a serialisation that loops, or a tool call. The thread's WebAssembly memory has a
 * fixed maximum and goes with the thread, its V8 heap and stack are capped by `resourceLimits`,
 * and its stdout/stderr are not this process's. Why this and not isolated-vm, a child process or
 * `node:vm`: docs/live.md#the-sandbox.
 *
 * Each run gets a fresh thread, runtime and context, so nothing one piece of code changes (a
 * prototype, a global) survives it, and nothing of the host is reachable from it: the only
 * things in scope are the tool functions given here (`codemode.<name>` and the same functions as
 * globals) and `console.log`, whose output is capped. Every failure (syntax, a thrown error, the
 * memory, stack, time or output limit, a promise that never settles) comes back as
 * `{ ok: false, error }`: a tool error for the model, never an exception in the harness.
 *
 * `code` is an async arrow function (Code Mode's form, its return value is the result) or a
 * script with top-level await (its console output is the result).
 */
export async function runInSandbox(
  code: string,
  tools: ReadonlyMap<string, SandboxTool>,
  limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS,
  hooks: SandboxHooks = {},
): Promise<SandboxOutcome> {
  // An optional dependency, checked on first use (the thread loads it): a light install still starts every command.
  requireOptional(
    await importOptional<typeof QuickJs>('quickjs-emscripten'),
    'quickjs-emscripten',
    'running model-written code in live mode',
  );
  const logs: string[] = [];
  let worker: Worker;
  try {
    worker = await startTsWorker(new URL('./sandbox-worker.ts', import.meta.url), undefined, THREAD_LIMITS, { stdout: true, stderr: true });
  } catch (e) {
    return { ok: false, error: `sandbox: cannot start its thread: ${(e as Error).message.split('\n')[0]}`, logs };
  }
  // Nothing the engine prints reaches this process's output.
  worker.stdout.resume();
  worker.stderr.resume();
  const { port1: port, port2 } = new MessageChannel();
  const answered = new SharedArrayBuffer(4);
  const wasm = await engine();
  const setup: SandboxSetup = {
    port: port2,
    answered,
    ...(wasm ? { wasm } : {}),
    wasmBytes: 2 * limits.memoryBytes + 16 * 1024 * 1024,
    code,
    names: [...tools.keys()],
    limits,
  };
  return new Promise<SandboxOutcome>((resolve) => {
    let settled = false;
    let deadline = Infinity;
    let timer = setTimeout(() => finish({ ok: false, error: 'sandbox: the engine did not start', logs }), START_MS);
    const finish = (outcome: SandboxOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      port.close();
      void worker.terminate();
      resolve(outcome);
    };
    const answer = (m: Extract<FromSandbox, { type: 'call' }>) => {
      // No tool is called after the deadline: the run ends here instead.
      if (Date.now() >= deadline) return finish({ ok: false, error: TIME_LIMIT, logs });
      const tool = tools.get(m.name);
      let reply: ToolAnswer;
      try {
        const args: unknown = m.args === undefined ? undefined : JSON.parse(m.args);
        const value = tool ? tool(args) : hooks.unknownTool ? hooks.unknownTool(m.name, args) : unknown(m.name);
        reply = value === undefined ? { ok: true } : { ok: true, json: JSON.stringify(value) };
      } catch (e) {
        reply = { ok: false, error: (e as Error).message };
      }
      port.postMessage(reply);
      const flag = new Int32Array(answered);
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
    };
    const onMessage = (m: FromSandbox) => {
      if (settled) return;
      if (m.type === 'ready') {
        deadline = Date.now() + limits.timeMs;
        clearTimeout(timer);
        timer = setTimeout(() => finish({ ok: false, error: TIME_LIMIT, logs }), limits.timeMs + GRACE_MS);
      } else if (m.type === 'log') logs.push(m.line);
      else if (m.type === 'call') answer(m);
      else if (m.outcome.ok) finish({ ok: true, result: m.outcome.json === undefined ? undefined : JSON.parse(m.outcome.json), logs });
      else finish({ ok: false, error: m.outcome.error, logs });
    };
    port.on('message', onMessage);
    worker.on('error', (e: Error & { code?: string }) =>
      finish({
        ok: false,
        error:
          e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory limit: the code used too much memory' : `sandbox: ${e.message.split('\n')[0]}`,
        logs,
      }),
    );
    worker.on('exit', () => {
      // What the thread sent before it ended is read first (the port and the thread are two channels).
      for (let m = receiveMessageOnPort(port); m && !settled; m = receiveMessageOnPort(port)) onMessage(m.message as FromSandbox);
      finish({ ok: false, error: 'sandbox: its thread ended', logs });
    });
    worker.postMessage(setup, [port2]);
  });
}

function unknown(name: string): never {
  throw new Error(`no tool named ${JSON.stringify(name)}`);
}

let compiled: Promise<WebAssembly.Module | undefined> | undefined;

/** The engine's WebAssembly, compiled once per process and handed to each thread (each compiles it itself when this fails). */
function engine(): Promise<WebAssembly.Module | undefined> {
  return (compiled ??= (async () => {
    try {
      const own = createRequire(createRequire(import.meta.url).resolve('quickjs-emscripten'));
      return await WebAssembly.compile(await readFile(own.resolve('@jitl/quickjs-wasmfile-release-sync/wasm')));
    } catch {
      return undefined;
    }
  })());
}
