import { deserializeMessage, ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { PassThrough } from 'node:stream';

/** How long a server gets to exit after its stdin closes, and again after SIGTERM, before SIGKILL. */
const STOP_GRACE_MS = 1_000;

/** Process groups are a POSIX notion; elsewhere only the child itself is signalled. */
const GROUPS = process.platform !== 'win32';

export interface ServerProcessParams {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

/**
 * MCP over a child's stdio, like the SDK's StdioClientTransport, but the child leads a process
 * group of its own and closing stops the whole group. A launcher (`sh -c`, `npx`, a wrapper
 * script) that does not pass SIGTERM on to the server it started would otherwise leave that
 * server running, holding our end of its pipes open, and keep the CLI alive after the capture
 * finished. The SDK's transport cannot spawn detached, hence this one.
 */
export class ProcessGroupTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The child's stderr, available before start so no early line is lost. */
  readonly stderr = new PassThrough();
  /** How the server ended on its own (before close() stopped it): for the error a failed capture reports. */
  exitedOnItsOwn?: { code: number | null; signal: NodeJS.Signals | null };
  /**
   * The first stdout line that is no JSON-RPC message. The MCP stdio transport allows nothing
   * else there (logs go to stderr), so the capture stops at it and names it.
   */
  notJsonRpc?: string;
  private child?: ChildProcess;
  private readonly buffer = new ReadBuffer();
  private stopping?: Promise<void>;

  constructor(private readonly params: ServerProcessParams) {}

  start(): Promise<void> {
    if (this.child) throw new Error('ProcessGroupTransport already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.params.command, this.params.args, {
        env: this.params.env,
        cwd: this.params.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        detached: GROUPS,
        windowsHide: true,
      });
      this.child = child;
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => {
        track(child);
        resolve();
      });
      child.on('exit', (code, signal) => {
        if (!this.stopping) this.exitedOnItsOwn = { code, signal };
      });
      child.on('close', () => this.onclose?.());
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        try {
          this.buffer.append(chunk);
          for (let m = this.buffer.readMessage(); m !== null; m = this.buffer.readMessage()) this.onmessage?.(m);
        } catch (error) {
          // (An over-long message is the SDK's buffer limit, reported as such by the capture.)
          if (!/ReadBuffer exceeded/.test(String(error))) this.notJsonRpc ??= firstNonJsonRpcLine(chunk.toString('utf8'));
          this.onerror?.(error as Error);
          void this.close();
        }
      });
      child.stderr?.pipe(this.stderr);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.stopping) return reject(new Error('Not connected'));
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Closes stdin, then SIGTERM to the group, then SIGKILL, each after STOP_GRACE_MS; resolves once the group is gone (or the last grace passed). */
  close(): Promise<void> {
    this.stopping ??= this.stop();
    return this.stopping;
  }

  private async stop(): Promise<void> {
    const child = this.child;
    this.buffer.clear();
    if (!child || child.pid === undefined) return;
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    child.stdin?.end();
    await Promise.race([exited, delay(STOP_GRACE_MS)]);
    // The leader may have exited on EOF while a server it started lingers: the group is checked either way.
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      if (!groupAlive(child)) break;
      signalGroup(child, signal);
      for (const until = Date.now() + STOP_GRACE_MS; groupAlive(child) && Date.now() < until;) await delay(20);
    }
    // Our ends of the pipes: a process that left the group (setsid) must not hold the CLI open.
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
    untrack(child);
  }
}

/** The line of a stdout chunk that failed to parse (a line split across chunks: the chunk's first line). */
function firstNonJsonRpcLine(text: string): string | undefined {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  for (const line of lines) {
    try {
      deserializeMessage(line);
    } catch {
      return line;
    }
  }
  return lines[0];
}

/**
 * A referenced timer on purpose: while `stop()` waits for a killed group, this timer may be all
 * that keeps Node's event loop alive. Unreferenced, the process would exit with status 0 before
 * the capture settled (the caller's report and exit status never reached).
 */
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (GROUPS) process.kill(-child.pid!, signal);
    else child.kill(signal);
  } catch {
    /* ESRCH: the group is gone already */
  }
}

/** Some member of the child's group still exists (zombies included: they go when reaped). */
function groupAlive(child: ChildProcess): boolean {
  if (!GROUPS) return child.exitCode === null && child.signalCode === null;
  try {
    process.kill(-child.pid!, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Children whose group may still run. Spawned detached, they no longer get the terminal's
 * Ctrl-C, so while any runs the CLI stops them itself when it exits, however it exits. The
 * handlers are there only while a group is: elsewhere a signal keeps its default action.
 */
const liveGroups = new Set<ChildProcess>();

function killAll(): void {
  for (const child of liveGroups) signalGroup(child, 'SIGKILL');
}

function onSignal(signal: NodeJS.Signals): void {
  killAll();
  // The default action this handler replaced: exit with 128 + the signal's number.
  process.exit(128 + (constants.signals[signal] ?? 0));
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function track(child: ChildProcess): void {
  if (liveGroups.size === 0) {
    process.on('exit', killAll);
    for (const s of SIGNALS) process.on(s, onSignal);
  }
  liveGroups.add(child);
}

function untrack(child: ChildProcess): void {
  if (!liveGroups.delete(child) || liveGroups.size > 0) return;
  process.off('exit', killAll);
  for (const s of SIGNALS) process.off(s, onSignal);
}
