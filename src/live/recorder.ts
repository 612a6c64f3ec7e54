import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatExchange } from './types.ts';

/**
 * Saves every request and response of a live run, one JSON file per model call. Only the
 * request body and the response body are written, never headers: API keys travel in headers
 * and exist nowhere else in a client.
 */
export class ExchangeRecorder {
  private n = 0;

  constructor(private readonly dir: string) {}

  save(meta: { pipeline: string; taskId: string; turn: number; step: number; model: string }, exchange: ChatExchange): string {
    this.n++;
    const name = `${String(this.n).padStart(5, '0')}-${safe(meta.pipeline)}-${safe(meta.taskId)}-t${meta.turn}-s${meta.step}.json`;
    mkdirSync(this.dir, { recursive: true });
    const file = join(this.dir, name);
    writeFileSync(
      file,
      `${JSON.stringify(
        {
          ...meta,
          url: exchange.url,
          attempts: exchange.attempts,
          latencyMs: Math.round(exchange.latencyMs),
          request: exchange.requestBody,
          response: exchange.responseBody,
        },
        null,
        1,
      )}\n`,
    );
    return file;
  }

  /** A request that failed for good (after retries): what was sent and why it failed. */
  saveFailure(
    meta: { pipeline: string; taskId: string; turn: number; step: number; model: string },
    requestBody: unknown,
    error: string,
  ): void {
    this.n++;
    const name = `${String(this.n).padStart(5, '0')}-${safe(meta.pipeline)}-${safe(meta.taskId)}-t${meta.turn}-s${meta.step}.failed.json`;
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(join(this.dir, name), `${JSON.stringify({ ...meta, request: requestBody, error }, null, 1)}\n`);
  }
}

function safe(s: string): string {
  return s.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 60);
}
