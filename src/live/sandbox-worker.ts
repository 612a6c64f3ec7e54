import { parentPort, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import {
  newQuickJSWASMModule,
  newVariant,
  RELEASE_SYNC,
  shouldInterruptAfterDeadline,
  type CustomizeVariantOptions,
  type QuickJSContext,
  type QuickJSHandle,
  type VmCallResult,
} from 'quickjs-emscripten';

/**
 * The thread that runs one piece of model-written code (./sandbox.ts starts it and ends it).
 * QuickJS runs here in a WebAssembly memory of its own with a fixed maximum, so the host thread
 * stays free to stop it at the deadline whatever the engine is doing, and all of its memory
 * goes when the thread ends. The runtime is never disposed: the thread is ended instead, so an
 * engine left broken by a limit never runs its teardown (QuickJS asserts there).
 */

/** The bounds of one run (defaults: DEFAULT_SANDBOX_LIMITS in ./sandbox.ts). */
export interface SandboxLimits {
  /** Heap of the QuickJS runtime, bytes (the whole WebAssembly memory's cap is derived from it: ./sandbox.ts). */
  memoryBytes: number;
  /** Wall time of one run from the engine's start, milliseconds; the thread is ended a second after it. */
  timeMs: number;
  /** Characters of console output plus the returned value's JSON. */
  outputChars: number;
}

/** The host's first message. */
export interface SandboxSetup {
  /** This thread's end of the channel for everything after the setup. */
  port: MessagePort;
  /** Set to 1 by the host when its answer to a tool call is on `port`. */
  answered: SharedArrayBuffer;
  /** The engine, compiled once by the host (compiled here when absent). */
  wasm?: WebAssembly.Module;
  /** The whole WebAssembly memory's maximum, bytes. */
  wasmBytes: number;
  code: string;
  /** Tool names, as `codemode.<name>` and globals. */
  names: string[];
  limits: SandboxLimits;
}

/** What this thread sends on the port. */
export type FromSandbox =
  | { type: 'ready' }
  | { type: 'log'; line: string }
  /** `args`: the argument's JSON, absent when none was given (or it had no JSON form). */
  | { type: 'call'; name: string; args?: string }
  | { type: 'done'; outcome: { ok: true; json?: string } | { ok: false; error: string } };

/** The host's answer to a call: the result's JSON (absent for undefined), or the tool's error. */
export type ToolAnswer = { ok: true; json?: string } | { ok: false; error: string };

const PAGE = 64 * 1024;
/** The most the engine (32-bit WebAssembly, as built) can address, in WebAssembly pages (the specification's page size). */
const MAX_PAGES = 32_768;
/** The engine's stack, bytes: under what the thread's own stack holds of its frames, so QuickJS's check fires first. */
const STACK_BYTES = 256 * 1024;
/** Characters of one tool argument's JSON: the bound on a model's own tool call (src/live/tool-arguments.ts). */
const ARGUMENT_CHARS = 1024 * 1024;

// Emscripten prints an abort on stderr before throwing it; the throw is what the host reports.
// (Emscripten reads any property of its module object; the typings list only some.)
const quiet: CustomizeVariantOptions['emscriptenModule'] & Record<string, unknown> = { print: () => undefined, printErr: () => undefined };

parentPort?.once('message', (setup: SandboxSetup) => {
  run(setup).catch((e: unknown) => done(setup.port, { ok: false, error: hostError(e) }));
});

async function run(s: SandboxSetup): Promise<void> {
  const memory = new WebAssembly.Memory({ initial: 256, maximum: Math.min(MAX_PAGES, Math.max(256, Math.floor(s.wasmBytes / PAGE))) });
  const variant = newVariant(RELEASE_SYNC, {
    ...(s.wasm ? { wasmModule: s.wasm } : {}),
    wasmMemory: memory,
    emscriptenModule: quiet,
  });
  const runtime = (await newQuickJSWASMModule(variant)).newRuntime();
  runtime.setMemoryLimit(s.limits.memoryBytes);
  runtime.setMaxStackSize(STACK_BYTES);
  const vm = runtime.newContext();
  s.port.postMessage({ type: 'ready' } satisfies FromSandbox);
  const deadline = Date.now() + s.limits.timeMs;
  const interrupted = shouldInterruptAfterDeadline(deadline);
  runtime.setInterruptHandler(interrupted);
  const out = new Output(s.port, s.limits.outputChars);
  const call = (name: string, args: string | undefined): ToolAnswer => {
    // A call that would start after the deadline is not made.
    if (Date.now() >= deadline) return { ok: false, error: TIME_LIMIT };
    const flag = new Int32Array(s.answered);
    Atomics.store(flag, 0, 0);
    s.port.postMessage({ type: 'call', name, ...(args === undefined ? {} : { args }) } satisfies FromSandbox);
    // The host answers, or ends this thread at the deadline. The host's wake-up for the previous
    // call may come late (it sets the flag before it wakes): a wake-up with no answer waits again.
    for (;;) {
      Atomics.wait(flag, 0, 0);
      const answer = receiveMessageOnPort(s.port);
      if (answer) return answer.message as ToolAnswer;
    }
  };
  installGlobals(vm, s.names, out, call);
  done(s.port, evaluate(vm, s.code, out));
}

function done(port: MessagePort, outcome: Extract<FromSandbox, { type: 'done' }>['outcome']): void {
  port.postMessage({ type: 'done', outcome } satisfies FromSandbox);
}

const TIME_LIMIT = 'time limit: the code ran too long';
const MEMORY_LIMIT = 'memory limit: the code used too much memory';
const STACK_LIMIT = 'stack limit: the code recursed too deeply';

/** Console output and the result share one budget of characters; log lines go to the host as they come. */
class Output {
  used = 0;
  overflow: string | undefined;
  constructor(
    private readonly port: MessagePort,
    readonly limit: number,
  ) {}
  get room(): number {
    return Math.max(0, this.limit - this.used);
  }
  /** Throws (and remembers why) when `chars` more would pass the limit. */
  spend(chars: number): void {
    this.used += chars;
    if (this.used > this.limit) throw new Error((this.overflow = `output limit: more than ${this.limit} characters`));
  }
  log(line: string): void {
    this.port.postMessage({ type: 'log', line } satisfies FromSandbox);
  }
}

function evaluate(vm: QuickJSContext, code: string, out: Output): Extract<FromSandbox, { type: 'done' }>['outcome'] {
  const source = /^\s*async\s*(\(\s*\)|[A-Za-z_$][\w$]*)\s*=>/.test(code)
    ? `(${code.trim().replace(/;\s*$/, '')})()`
    : `(async () => {\n${code}\n})()`;
  const evaluated = vm.evalCode(source, 'model-code.js');
  if (evaluated.error) return { ok: false, error: errorText(vm, evaluated.error, out) };
  const promise = evaluated.value;
  const jobs = vm.runtime.executePendingJobs();
  if (jobs.error) return { ok: false, error: errorText(vm, jobs.error, out) };
  const state = vm.getPromiseState(promise);
  if (state.type === 'pending') return { ok: false, error: 'the code never finished: a promise that does not settle' };
  if (state.type === 'rejected') return { ok: false, error: errorText(vm, state.error, out) };
  const json = state.value.consume((h) => stringify(vm, h, out.room));
  if (json.error) return { ok: false, error: errorText(vm, json.error, out) };
  if (out.overflow) return { ok: false, error: out.overflow };
  return json.value === undefined ? { ok: true } : { ok: true, json: json.value };
}

/**
 * `console.log`, and each tool as `codemode.<name>` and a global of that name. `codemode` is a
 * proxy: a name that is no tool is still called, so the host records the call to an unknown tool.
 * Everything goes through one host function that the globals' closures hold, none of the code's.
 */
function installGlobals(
  vm: QuickJSContext,
  names: readonly string[],
  out: Output,
  call: (name: string, args: string | undefined) => ToolAnswer,
): void {
  const log = vm.newFunction('log', (...args: QuickJSHandle[]) => {
    const parts: string[] = [];
    for (const a of args) {
      const text = vm.typeof(a) === 'string' ? boundedString(vm, a, out.room) : stringify(vm, a, out.room);
      if (text.error) return { error: text.error };
      parts.push(text.value ?? 'undefined');
    }
    const line = parts.join(' ');
    out.spend(line.length);
    out.log(line);
  });
  const tool = vm.newFunction(
    'tool',
    (nameHandle: QuickJSHandle, ...rest: QuickJSHandle[]): VmCallResult<QuickJSHandle> | QuickJSHandle => {
      const name = vm.getString(nameHandle);
      let args: string | undefined;
      if (rest.length) {
        const json = stringify(vm, rest[0]!, ARGUMENT_CHARS, 'argument limit');
        // An argument whose serialisation throws (or is interrupted) never reaches the tool.
        if (json.error) return { error: json.error };
        args = json.value;
      }
      const answer = call(name, args);
      if (!answer.ok) return { error: vm.newError(answer.error) };
      return answer.json === undefined ? vm.undefined : parseJson(vm, answer.json);
    },
  );
  const setup = vm.unwrapResult(
    vm.evalCode(`(log, tool, names) => {
      const fns = {};
      for (const n of names) fns[n] = (...a) => tool(n, ...a);
      globalThis.console = { log };
      for (const n of names) globalThis[n] = fns[n];
      globalThis.codemode = new Proxy(fns, {
        get: (t, k) => (typeof k !== 'string' || k === 'then' || Object.hasOwn(t, k) ? t[k] : (...a) => tool(k, ...a)),
      });
    }`),
  );
  const list = parseJson(vm, JSON.stringify(names));
  vm.unwrapResult(vm.callFunction(setup, vm.undefined, log, tool, list)).dispose();
  for (const h of [setup, list, log, tool]) h.dispose();
}

/** A text of the VM's, or the VM error to rethrow. */
type Text = { value: string | undefined; error?: never } | { error: QuickJSHandle; value?: never };

/** A VM string as a host string, unless it is longer than `room` (then `limit`'s error, without copying it). */
function boundedString(vm: QuickJSContext, h: QuickJSHandle, room: number, limit = 'output limit'): Text {
  const length = vm.getProp(h, 'length').consume((l) => vm.getNumber(l));
  if (length > room) return { error: vm.newError(`${limit}: a value of ${length} characters`) };
  return { value: vm.getString(h) };
}

/**
 * JSON.stringify inside the VM (the VM's own, as the code left it): the text (undefined when
 * the value has none), or the error it threw, interrupts included, for the caller to rethrow.
 */
function stringify(vm: QuickJSContext, handle: QuickJSHandle, room: number, limit?: string): Text {
  const json = vm.getProp(vm.global, 'JSON');
  const fn = vm.getProp(json, 'stringify');
  try {
    const r = vm.callFunction(fn, json, handle);
    if (r.error) return { error: r.error };
    return r.value.consume((h) => {
      if (vm.typeof(h) !== 'string') return { value: undefined };
      return boundedString(vm, h, room, limit);
    });
  } finally {
    fn.dispose();
    json.dispose();
  }
}

/** A host JSON text as a new VM value (no host object is ever shared). */
function parseJson(vm: QuickJSContext, text: string): QuickJSHandle {
  const json = vm.getProp(vm.global, 'JSON');
  const parse = vm.getProp(json, 'parse');
  const str = vm.newString(text);
  try {
    return vm.unwrapResult(vm.callFunction(parse, json, str));
  } finally {
    for (const h of [parse, json, str]) h.dispose();
  }
}

function errorText(vm: QuickJSContext, handle: QuickJSHandle, out: Output): string {
  const dumped: unknown = handle.consume((h) => vm.dump(h));
  if (out.overflow) return out.overflow;
  if (dumped && typeof dumped === 'object') {
    const e = dumped as { name?: string; message?: string };
    const text = `${e.name ?? 'Error'}: ${e.message ?? ''}`;
    if (/interrupted/i.test(text) || text.includes(TIME_LIMIT)) return TIME_LIMIT;
    if (/out of memory/i.test(text)) return MEMORY_LIMIT;
    if (/stack overflow|call stack size/i.test(text)) return STACK_LIMIT;
    return text.slice(0, 500);
  }
  return String(dumped).slice(0, 500);
}

/** An exception of the host side of this thread: the engine gave up (this thread's stack, its memory, a trap). */
function hostError(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  if (/call stack size/i.test(message)) return STACK_LIMIT;
  if (/out of memory/i.test(message)) return MEMORY_LIMIT;
  return `sandbox: ${message.split('\n')[0]}`;
}
