import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

/**
 * A minimal Chrome DevTools Protocol client over `--remote-debugging-pipe`: Chromium reads
 * NUL-terminated JSON messages on fd 3 and writes them on fd 4. No WebSocket, no port, no
 * dependency.
 */
export interface CdpEvent {
  method: string;
  params: Record<string, unknown>;
  sessionId?: string;
}

type Pending = { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void; method: string };

export class CdpPipe {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners: ((e: CdpEvent) => void)[] = [];
  private buffer = '';
  private exited: string | undefined;
  /** Chromium's stderr (last few KB), for error messages. */
  stderr = '';

  private constructor(private readonly child: ChildProcess) {
    const out = child.stdio[4] as Readable;
    out.setEncoding('utf8');
    out.on('data', (chunk: string) => this.onData(chunk));
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (s: string) => (this.stderr = (this.stderr + s).slice(-4000)));
    child.on('exit', (code, signal) => {
      this.exited = `chromium exited (${signal ?? `code ${code}`})`;
      for (const p of this.pending.values()) p.reject(new Error(`${this.exited} before answering ${p.method}\n${this.stderr}`));
      this.pending.clear();
    });
    child.on('error', (err) => {
      this.exited = `chromium could not start: ${err.message}`;
      for (const p of this.pending.values()) p.reject(new Error(this.exited));
      this.pending.clear();
    });
    (child.stdio[3] as Writable).on('error', () => {}); // EPIPE after exit is reported through 'exit'
  }

  static launch(executable: string, args: readonly string[]): CdpPipe {
    const child = spawn(executable, [...args, '--remote-debugging-pipe'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
    return new CdpPipe(child);
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    if (this.exited) return Promise.reject(new Error(`${this.exited}; cannot send ${method}\n${this.stderr}`));
    const id = this.nextId++;
    const message = JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) });
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      (this.child.stdio[3] as Writable).write(`${message}\0`);
    });
  }

  on(listener: (e: CdpEvent) => void): void {
    this.listeners.push(listener);
  }

  /** Resolves with the first event matching `pred`, or rejects after `ms`. */
  waitFor(pred: (e: CdpEvent) => boolean, ms: number, what: string): Promise<CdpEvent> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
      this.on((e) => {
        if (pred(e)) {
          clearTimeout(timer);
          resolve(e);
        }
      });
    });
  }

  /** Asks the browser to close; kills it if it has not exited within `ms`. */
  async close(ms = 5000): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.send('Browser.close').catch(() => {});
    const timer = setTimeout(() => this.child.kill('SIGKILL'), ms);
    await gone;
    clearTimeout(timer);
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\0')) >= 0) {
      const text = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 1);
      const msg = JSON.parse(text) as {
        id?: number;
        result?: Record<string, unknown>;
        error?: { message: string };
        method?: string;
        params?: Record<string, unknown>;
        sessionId?: string;
      };
      if (msg.id !== undefined) {
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (!p) continue;
        if (msg.error) p.reject(new Error(`${p.method}: ${msg.error.message}`));
        else p.resolve(msg.result ?? {});
      } else if (msg.method) {
        const e: CdpEvent = { method: msg.method, params: msg.params ?? {}, sessionId: msg.sessionId };
        for (const l of this.listeners) l(e);
      }
    }
  }
}
