/**
 * One JSON POST with a timeout, retried with exponential back-off on rate limits (429),
 * server errors (5xx), timeouts and network failures. `Retry-After` (seconds) is honoured when
 * the provider sends it, capped at the largest back-off. Other 4xx fail at once: retrying a
 * bad request or a bad key only spends money or time.
 */

export interface RetryPolicy {
  /** Attempts in all (1 = no retry). */
  attempts: number;
  /** First back-off; doubles on each retry. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Per-attempt deadline. */
  timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 1000, maxDelayMs: 30_000, timeoutMs: 120_000 };

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly url: string,
    readonly body: string,
    readonly attempts: number,
  ) {
    // The body of an error response can be long; its start says what went wrong.
    super(`${url}: HTTP ${status} after ${attempts} attempt(s): ${body.slice(0, 300)}`);
    this.name = 'HttpError';
  }
}

class TimeoutError extends Error {
  constructor(
    readonly url: string,
    readonly timeoutMs: number,
    readonly attempts: number,
  ) {
    super(`${url}: no response within ${timeoutMs / 1000} s, ${attempts} attempt(s)`);
    this.name = 'TimeoutError';
  }
}

export interface PostResult {
  body: unknown;
  attempts: number;
  latencyMs: number;
}

const retryable = (status: number) => status === 429 || status >= 500;

export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  policy: RetryPolicy = DEFAULT_RETRY,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<PostResult> {
  const started = performance.now();
  let lastError: Error = new Error(`${url}: no attempt made`);
  for (let attempt = 1; attempt <= Math.max(1, policy.attempts); attempt++) {
    const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
    let wait = backoff;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), policy.timeoutMs);
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      const text = await res.text();
      if (res.ok) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          throw new HttpError(res.status, url, `response is not JSON: ${text.slice(0, 200)}`, attempt);
        }
        return { body: parsed, attempts: attempt, latencyMs: performance.now() - started };
      }
      lastError = new HttpError(res.status, url, text, attempt);
      if (!retryable(res.status)) throw lastError;
      const retryAfter = Number(res.headers.get('retry-after'));
      if (Number.isFinite(retryAfter) && retryAfter > 0) wait = Math.min(policy.maxDelayMs, retryAfter * 1000);
    } catch (err) {
      if (err instanceof HttpError && !retryable(err.status)) throw err;
      if (controller.signal.aborted) lastError = new TimeoutError(url, policy.timeoutMs, attempt);
      else if (!(err instanceof HttpError)) lastError = new Error(`${url}: ${(err as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
    if (attempt < policy.attempts) await sleep(wait);
  }
  throw lastError;
}
