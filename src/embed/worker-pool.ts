import type { Worker } from 'node:worker_threads';
import { rowsOf } from '../util/block-rows.ts';
import { awaitedLater, endStarted, startTsWorker } from '../util/ts-worker.ts';
import type { EmbedRequest, EmbedResponse } from './embed-worker.ts';
import type { Encoder } from './types.ts';
import type { UseLiteOptions } from './use-lite.ts';

/** Environment variable: worker threads that embed with use-lite (default 2; 0 or 1 embeds in this thread). */
const EMBED_WORKERS_ENV = 'TOOLTAX_EMBED_WORKERS';
const DEFAULT_WORKERS = 2;
/** Below this many texts one call is cheaper in this thread than waking the workers. */
const MIN_PARALLEL_TEXTS = 48;
/** Workers (and their model + wasm heap) are ended after this long without work. */
const IDLE_MS = 1_500;

export interface EmbedPoolOptions {
  /** How long workers stay without work before they end (default IDLE_MS). */
  idleMs?: number;
}

export function embedWorkerCount(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[EMBED_WORKERS_ENV];
  if (raw === undefined || raw === '') return DEFAULT_WORKERS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 64)
    throw new Error(`${EMBED_WORKERS_ENV}: expected an integer from 0 to 64, got ${JSON.stringify(raw)}`);
  return n;
}

/**
 * Splits large embed() calls over worker threads, each running its own use-lite model (the
 * tfjs wasm backend is single-threaded in Node: its threaded build needs a blob: worker URL).
 * Texts are dealt longest first to the least-loaded worker (cost ~ characters); since a
 * use-lite vector does not depend on its batch (see ./use-lite.ts), the result is the same
 * for any number of workers. Small calls go to `local`, the in-thread encoder. Workers start
 * on the first large call and end when idle, so their memory is returned after the cold
 * embedding phase.
 */
export function withEmbedWorkers<E extends Encoder>(
  local: E,
  workers: number,
  options: UseLiteOptions = {},
  pool: EmbedPoolOptions = {},
): E {
  if (workers <= 1) return local;
  const threads = new Pool(workers, options, pool.idleMs ?? IDLE_MS);
  pools.add(threads);
  const pooled = Object.create(local) as E;
  pooled.embed = async (texts: readonly string[]) => (texts.length < MIN_PARALLEL_TEXTS ? local.embed(texts) : threads.embed(texts));
  return pooled;
}

class Pool {
  /** Started threads (their module is compiled first); empty while none is. */
  private threads: Promise<Worker>[] = [];
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }>();
  private idle: NodeJS.Timeout | undefined;
  /** embed() calls under way: the idle timer runs only when none is, so no worker ends under a request. */
  private calls = 0;

  constructor(
    private readonly size: number,
    private readonly options: UseLiteOptions,
    private readonly idleMs: number,
  ) {}

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    clearTimeout(this.idle);
    this.calls++;
    if (this.threads.length === 0) this.threads = Array.from({ length: this.size }, () => this.start());
    const shares = dealByCost(texts, this.size);
    try {
      const parts = await Promise.all(
        shares.map((idx, w) =>
          idx.length
            ? this.request(
                w,
                idx.map((i) => texts[i]!),
              )
            : [],
        ),
      );
      const out = new Array<Float32Array>(texts.length);
      shares.forEach((idx, w) => idx.forEach((i, j) => (out[i] = parts[w]![j]!)));
      return out;
    } finally {
      if (--this.calls === 0) this.idle = setTimeout(() => this.stop(), this.idleMs).unref();
    }
  }

  /** A thread that fails to start rejects where a request awaits it. */
  private start(): Promise<Worker> {
    return awaitedLater(this.startThread());
  }

  private async startThread(): Promise<Worker> {
    const worker = await startTsWorker(new URL('./embed-worker.ts', import.meta.url), this.options);
    worker.unref();
    worker.on('message', (res: EmbedResponse) => {
      const w = this.waiting.get(res.id);
      this.waiting.delete(res.id);
      if ('error' in res) w?.reject(new Error(`use-lite worker: ${res.error}`));
      else w?.resolve(rowsOf(res.packed, res.dim));
    });
    worker.on('error', (e) => this.failAll(e));
    return worker;
  }

  private async request(w: number, texts: string[]): Promise<Float32Array[]> {
    const worker = await this.threads[w]!;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, texts } satisfies EmbedRequest);
    });
  }

  private failAll(e: Error): void {
    for (const w of this.waiting.values()) w.reject(e);
    this.waiting.clear();
    this.stop();
  }

  private stop(): void {
    for (const t of this.threads) void endStarted(t);
    this.threads = [];
  }

  /** Ends the threads now (awaited) unless a call is under way; the next large call starts them again. */
  async release(): Promise<void> {
    if (this.calls > 0) return;
    clearTimeout(this.idle);
    const threads = this.threads;
    this.threads = [];
    await Promise.all(threads.map(endStarted));
  }
}

const pools = new Set<Pool>();

/**
 * Ends every idle embedding worker of this thread now instead of after IDLE_MS: the bench calls
 * it after its up-front embedding pass, so that the workers' memory (~115 MB of WebAssembly
 * each) is gone before the lanes start (a cold run's peak was at that handover).
 */
export async function releaseEmbedWorkers(): Promise<void> {
  await Promise.all([...pools].map((p) => p.release()));
}

/** Indices of `texts` per worker: longest first, each to the worker with the least characters so far. */
export function dealByCost(texts: readonly string[], workers: number): number[][] {
  const shares: number[][] = Array.from({ length: workers }, () => []);
  const load = new Array<number>(workers).fill(0);
  const order = texts.map((_, i) => i).sort((a, b) => texts[b]!.length - texts[a]!.length || a - b);
  for (const i of order) {
    let w = 0;
    for (let j = 1; j < workers; j++) if (load[j]! < load[w]!) w = j;
    shares[w]!.push(i);
    load[w]! += texts[i]!.length;
  }
  return shares;
}
