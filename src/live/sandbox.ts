import type * as QuickJs from 'quickjs-emscripten';
import type { QuickJSContext, QuickJSHandle, QuickJSWASMModule } from 'quickjs-emscripten';
import { importOptional, requireOptional } from '../util/optional-package.ts';

/**
 * Runs model-written code in QuickJS compiled to WebAssembly (`quickjs-emscripten`). Chosen
 * over the alternatives on npm because the engine is a WebAssembly module: it has no file
 * system, network, process, clock or module loader unless the host hands it one, needs no native
 * build (isolated-vm does), and takes a memory limit, a stack limit and an interrupt handler
 * from the host. `node:vm` and `ses` run in Node's own heap and are not a security boundary
 * against a memory bomb or an endless loop. `@sebastianwessel/quickjs` wraps the same engine
 * with a Node-like environment (fetch, a file system) that code mode has no use for.
 *
 * Each run gets a fresh runtime and context, so nothing one piece of code changes (a prototype,
 * a global) survives it, and nothing of the host is reachable from it: the only things in scope
 * are the tool functions given here (`codemode.<name>` and the same functions as globals) and
 * `console.log`, whose output is capped. Every failure (syntax, a thrown error, the memory, time
 * or output limit, a promise that never settles) comes back as `{ ok: false, error }`: a tool
 * error for the model, never an exception in the harness.
 */
export interface SandboxLimits {
  /** Heap of the QuickJS runtime, bytes. */
  memoryBytes: number;
  /** Wall time of one run, milliseconds. */
  timeMs: number;
  /** Characters of console output plus the returned value's JSON. */
  outputChars: number;
}

const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { memoryBytes: 32 * 1024 * 1024, timeMs: 2000, outputChars: 20_000 };

/** A tool the code may call: takes the argument object, returns the result's JSON-able value. */
export type SandboxTool = (args: unknown) => unknown;

export type SandboxOutcome = { ok: true; result: unknown; logs: string[] } | { ok: false; error: string; logs: string[] };

let quickjs: Promise<QuickJSWASMModule> | undefined;

class OutputLimit extends Error {}

/**
 * Runs `code`: an async arrow function (Code Mode's form, its return value is the result) or a
 * script with top-level await (its console output is the result).
 */
export async function runInSandbox(
  code: string,
  tools: ReadonlyMap<string, SandboxTool>,
  limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS,
): Promise<SandboxOutcome> {
  // An optional dependency, loaded on first use: a light install still starts every command.
  const { getQuickJS, shouldInterruptAfterDeadline } = requireOptional(
    await importOptional<typeof QuickJs>('quickjs-emscripten'),
    'quickjs-emscripten',
    'running model-written code in live mode',
  );
  const module = await (quickjs ??= getQuickJS());
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(512 * 1024);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + limits.timeMs));
  const vm = runtime.newContext();
  const logs: string[] = [];
  let used = 0;
  const spend = (text: string) => {
    used += text.length;
    if (used > limits.outputChars) throw new OutputLimit(`output limit: more than ${limits.outputChars} characters`);
  };
  let overflow: string | undefined;
  try {
    installGlobals(vm, tools, (line) => {
      try {
        spend(line);
        logs.push(line);
      } catch (e) {
        overflow = (e as Error).message;
        throw e;
      }
    });
    const source = /^\s*async\s*(\(\s*\)|[A-Za-z_$][\w$]*)\s*=>/.test(code)
      ? `(${code.trim().replace(/;\s*$/, '')})()`
      : `(async () => {\n${code}\n})()`;
    const evaluated = vm.evalCode(source, 'model-code.js');
    if (evaluated.error) return { ok: false, error: errorText(vm, evaluated.error, overflow), logs };
    const promise = evaluated.value;
    try {
      const jobs = runtime.executePendingJobs();
      if (jobs.error) return { ok: false, error: errorText(vm, jobs.error, overflow), logs };
      const state = vm.getPromiseState(promise);
      if (state.type === 'pending') return { ok: false, error: 'the code never finished: a promise that does not settle', logs };
      if (state.type === 'rejected') return { ok: false, error: errorText(vm, state.error, overflow), logs };
      const result = state.value.consume((h) => jsonOf(vm, h, limits.outputChars - used));
      if (overflow) return { ok: false, error: overflow, logs };
      return result.ok ? { ok: true, result: result.value, logs } : { ok: false, error: result.error, logs };
    } finally {
      promise.dispose();
    }
  } catch (e) {
    // The engine itself gave up (out of memory while the host was building a value).
    return { ok: false, error: overflow ?? `sandbox: ${(e as Error).message.split('\n')[0]}`, logs };
  } finally {
    try {
      vm.dispose();
      runtime.dispose();
    } catch {
      // A runtime that ran out of memory may leak its last objects; the next run gets a new one.
    }
  }
}

function installGlobals(vm: QuickJSContext, tools: ReadonlyMap<string, SandboxTool>, log: (line: string) => void): void {
  const console = vm.newObject();
  const logFn = vm.newFunction('log', (...args: QuickJSHandle[]) => {
    log(args.map((a) => (vm.typeof(a) === 'string' ? vm.getString(a) : stringify(vm, a))).join(' '));
  });
  vm.setProp(console, 'log', logFn);
  vm.setProp(vm.global, 'console', console);
  logFn.dispose();
  console.dispose();
  const namespace = vm.newObject();
  for (const [name, tool] of tools) {
    const fn = vm.newFunction(name, (arg?: QuickJSHandle) => {
      const args: unknown = arg === undefined ? {} : JSON.parse(stringify(vm, arg) || '{}');
      return valueHandle(vm, tool(args));
    });
    vm.setProp(namespace, name, fn);
    vm.setProp(vm.global, name, fn);
    fn.dispose();
  }
  vm.setProp(vm.global, 'codemode', namespace);
  namespace.dispose();
}

/** A host value as a new VM value, through JSON (no host object is ever shared). */
function valueHandle(vm: QuickJSContext, value: unknown): QuickJSHandle {
  if (value === undefined) return vm.undefined;
  const text = vm.newString(JSON.stringify(value));
  const json = vm.getProp(vm.global, 'JSON');
  const parse = vm.getProp(json, 'parse');
  try {
    return vm.unwrapResult(vm.callFunction(parse, json, text));
  } finally {
    parse.dispose();
    json.dispose();
    text.dispose();
  }
}

/** JSON.stringify inside the VM (the VM's own, as the code left it): the text, or '' for undefined. */
function stringify(vm: QuickJSContext, handle: QuickJSHandle): string {
  const json = vm.getProp(vm.global, 'JSON');
  const fn = vm.getProp(json, 'stringify');
  try {
    const r = vm.callFunction(fn, json, handle);
    if (r.error) {
      r.error.dispose();
      return '"[unserialisable value]"';
    }
    return r.value.consume((h) => (vm.typeof(h) === 'string' ? vm.getString(h) : ''));
  } finally {
    fn.dispose();
    json.dispose();
  }
}

function jsonOf(vm: QuickJSContext, handle: QuickJSHandle, room: number): { ok: true; value: unknown } | { ok: false; error: string } {
  const text = stringify(vm, handle);
  if (text.length > Math.max(0, room)) return { ok: false, error: `output limit: the result is ${text.length} characters` };
  return { ok: true, value: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

function errorText(vm: QuickJSContext, handle: QuickJSHandle, overflow: string | undefined): string {
  const dumped: unknown = handle.consume((h) => vm.dump(h));
  if (overflow) return overflow;
  if (dumped && typeof dumped === 'object') {
    const e = dumped as { name?: string; message?: string };
    const text = `${e.name ?? 'Error'}: ${e.message ?? ''}`;
    if (/interrupted/i.test(text)) return 'time limit: the code ran too long';
    if (/out of memory/i.test(text)) return 'memory limit: the code used too much memory';
    return text.slice(0, 500);
  }
  return String(dumped).slice(0, 500);
}
