import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactJson } from '../mcp/redact.ts';
import type { ChargedUsage } from './budget.ts';
import type { CallCoordinates, ChatExchange } from './types.ts';

type CallMeta = CallCoordinates & { model: string };

/** The folder of a live run's saved exchanges, relative to its output folder. */
export const REQUESTS_DIR = 'requests';

/**
 * The file of the run's `seq`-th model call (1-based), relative to the requests folder: the
 * same call of the same run always has the same name, so a resumed run rewrites the files of
 * the calls it replays, and a journal can name the files its calls were saved to.
 */
export function exchangeFileName(seq: number, call: CallCoordinates, failed: boolean): string {
  return `${String(seq).padStart(5, '0')}-${safe(call.pipeline)}-${safe(call.taskId)}-t${call.turn}-s${call.step}${failed ? '.failed' : ''}.json`;
}

/**
 * Saves every request and response of a live run, one JSON file per model call. Only the
 * request body and the response body are written, never headers: API keys travel in headers.
 * An endpoint may still echo the key (or a secret of the base URL) in what it sends back, so
 * every record is redacted with the run's secrets before it is written.
 */
export class ExchangeRecorder {
  private n = 0;
  /** The names of the files written, in order. */
  readonly written: string[] = [];

  constructor(
    private readonly dir: string,
    private readonly secrets: readonly string[] = [],
  ) {}

  /** A model call that got a response, and what it was charged (and on whose count). */
  save(meta: CallMeta, exchange: ChatExchange, charged: ChargedUsage): string {
    return this.write(meta, false, {
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
    this.write(meta, true, { ...meta, request: requestBody, error });
  }

  private write(meta: CallMeta, failed: boolean, record: Record<string, unknown>): string {
    const name = exchangeFileName(++this.n, meta, failed);
    mkdirSync(this.dir, { recursive: true });
    const file = join(this.dir, name);
    writeFileSync(file, `${JSON.stringify(redactJson(record, this.secrets), null, 1)}\n`);
    this.written.push(name);
    return file;
  }
}

function safe(s: string): string {
  return s.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 60);
}
