import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactJson } from '../mcp/redact.ts';
import type { ChargedUsage } from './budget.ts';
import type { ChatExchange } from './types.ts';

type CallMeta = { pipeline: string; taskId: string; turn: number; step: number; model: string };

/**
 * Saves every request and response of a live run, one JSON file per model call. Only the
 * request body and the response body are written, never headers: API keys travel in headers.
 * An endpoint may still echo the key (or a secret of the base URL) in what it sends back, so
 * every record is redacted with the run's secrets before it is written.
 */
export class ExchangeRecorder {
  private n = 0;

  constructor(
    private readonly dir: string,
    private readonly secrets: readonly string[] = [],
  ) {}

  /** A model call that got a response, and what it was charged (and on whose count). */
  save(meta: CallMeta, exchange: ChatExchange, charged: ChargedUsage): string {
    return this.write(meta, '', {
      ...meta,
      url: exchange.url,
      attempts: exchange.attempts,
      latencyMs: Math.round(exchange.latencyMs),
      charged,
      request: exchange.requestBody,
      response: exchange.responseBody,
    });
  }

  /** A request that failed for good (after retries): what was sent and why it failed. */
  saveFailure(meta: CallMeta, requestBody: unknown, error: string): void {
    this.write(meta, '.failed', { ...meta, request: requestBody, error });
  }

  private write(meta: CallMeta, suffix: string, record: Record<string, unknown>): string {
    this.n++;
    const name = `${String(this.n).padStart(5, '0')}-${safe(meta.pipeline)}-${safe(meta.taskId)}-t${meta.turn}-s${meta.step}${suffix}.json`;
    mkdirSync(this.dir, { recursive: true });
    const file = join(this.dir, name);
    writeFileSync(file, `${JSON.stringify(redactJson(record, this.secrets), null, 1)}\n`);
    return file;
  }
}

function safe(s: string): string {
  return s.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 60);
}
