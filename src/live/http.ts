import { redactText, redactUrl } from '../mcp/redact.ts';

/**
 * One JSON POST with a timeout, retried with exponential back-off on rate limits (429),
 * server errors (5xx), timeouts and network failures. `Retry-After` (seconds) is honoured when
 * the provider sends it, capped at the largest back-off. Other 4xx fail at once: retrying a
 * bad request or a bad key only spends money or time.
 *
 * The request carries the API key in a header and the prompt in its body, so a redirect to
 * another origin is never followed (fetch would send both there); a same-origin 307/308 is.
 * Every message names the URL without its credentials or query values and has the run's
 * secrets (the key, secrets in the base URL) redacted from what the endpoint sent back.
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

/** A response body larger than this is not read: no chat completion comes near it. */
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** Same-origin redirects followed at most, per attempt. */
const MAX_REDIRECTS = 5;

/** The endpoint answered with an HTTP error (or an unreadable body) after the attempts allowed. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly url: string,
    readonly body: string,
    readonly attempts: number,
  ) {
    // The body of an error response can be long; its start says what went wrong.
    super(`${url}: HTTP ${status} after ${attempts} attempt(s): ${oneLine(body).slice(0, 300)}`);
    this.name = 'HttpError';
  }
}

/** No HTTP response at all, on every attempt: the connection failed, or the deadline passed. */
export class NoResponseError extends Error {
  constructor(
    message: string,
    /** The last attempt could not connect (refused, no such host, TLS, reset) rather than timing out. */
    readonly connectFailed: boolean,
  ) {
    super(message);
    this.name = 'NoResponseError';
  }
}

/**
 * The endpoint cannot be used as given: not an http(s) URL, credentials in it, a redirect to
 * another origin, or nothing answering the run's first request. Stops the run with one line.
 */
export class EndpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EndpointError';
  }
}

export interface PostResult {
  body: unknown;
  attempts: number;
  latencyMs: number;
}

export interface PostOptions {
  policy?: RetryPolicy;
  /** Values redacted from every message (the API key, secrets in the base URL). */
  secrets?: readonly string[];
  sleep?: (ms: number) => Promise<void>;
}

/**
 * `{base}{path}` as a URL, the base's query kept (`https://gw/v1?key=x` + `/chat/completions` →
 * `https://gw/v1/chat/completions?key=x`). Throws EndpointError for anything fetch cannot send
 * a key to: an invalid URL, a scheme other than http(s), credentials in the URL.
 */
export function endpointUrl(base: string, path: string): URL {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new EndpointError(`--base-url ${JSON.stringify(redactUrl(base))}: expected an http(s) URL, found an invalid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new EndpointError(`--base-url ${redactUrl(url)}: expected an http(s) URL, found a ${url.protocol} URL`);
  if (url.username || url.password)
    throw new EndpointError(
      `--base-url ${redactUrl(url)}: credentials in the URL (user:password@) are not sent; give the key in the API key variable`,
    );
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  return url;
}

const retryable = (status: number) => status === 429 || status >= 500;

export async function postJson(url: URL, headers: Record<string, string>, body: unknown, options: PostOptions = {}): Promise<PostResult> {
  const policy = options.policy ?? DEFAULT_RETRY;
  const secrets = options.secrets ?? [];
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const shown = redactUrl(url);
  const clean = (text: string) => redactText(text, secrets);
  const payload = JSON.stringify(body);
  const started = performance.now();
  let lastError: Error = new NoResponseError(`${shown}: no attempt made`, false);
  for (let attempt = 1; attempt <= Math.max(1, policy.attempts); attempt++) {
    const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
    let wait = backoff;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), policy.timeoutMs);
    try {
      const res = await fetchFollowingSameOrigin(url, headers, payload, controller.signal, shown);
      const text = await readBounded(res, shown, attempt);
      if (res.ok) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          throw new HttpError(res.status, shown, clean(`response is not JSON: ${text.slice(0, 200)}`), attempt);
        }
        return { body: parsed, attempts: attempt, latencyMs: performance.now() - started };
      }
      lastError = new HttpError(res.status, shown, clean(text), attempt);
      if (!retryable(res.status)) throw lastError;
      const retryAfter = Number(res.headers.get('retry-after'));
      if (Number.isFinite(retryAfter) && retryAfter > 0) wait = Math.min(policy.maxDelayMs, retryAfter * 1000);
    } catch (err) {
      if (err instanceof EndpointError) throw err;
      if (err instanceof HttpError) {
        if (!retryable(err.status)) throw err;
        lastError = err;
      } else if (controller.signal.aborted)
        lastError = new NoResponseError(`${shown}: no response within ${policy.timeoutMs / 1000} s, ${attempt} attempt(s)`, false);
      else lastError = new NoResponseError(`${shown}: ${clean(networkReason(err))}, ${attempt} attempt(s)`, true);
    } finally {
      clearTimeout(timer);
    }
    if (attempt < policy.attempts) await sleep(wait);
  }
  throw lastError;
}

/** POSTs, following a 307/308 to the same origin only; any other redirect is an EndpointError. */
async function fetchFollowingSameOrigin(url: URL, headers: Record<string, string>, payload: string, signal: AbortSignal, shown: string) {
  let target = url;
  for (let hop = 0; ; hop++) {
    const res = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: payload,
      signal,
      redirect: 'manual',
    });
    if (res.status < 300 || res.status > 399 || res.status === 304) return res;
    await res.body?.cancel().catch(() => {});
    const location = res.headers.get('location');
    let next: URL | undefined;
    try {
      next = location ? new URL(location, target) : undefined;
    } catch {
      next = undefined;
    }
    if (!next) throw new EndpointError(`${shown}: HTTP ${res.status} redirect without a usable Location: not followed`);
    if (next.origin !== url.origin)
      throw new EndpointError(
        `${shown}: HTTP ${res.status} redirect to another origin (${next.origin}): not followed, since the request carries the API key and the prompt; use that URL as --base-url if you trust it`,
      );
    if (res.status !== 307 && res.status !== 308)
      throw new EndpointError(
        `${shown}: HTTP ${res.status} redirect (it would turn the POST into a GET): not followed; use the URL it names as --base-url`,
      );
    if (hop >= MAX_REDIRECTS) throw new EndpointError(`${shown}: more than ${MAX_REDIRECTS} redirects: not followed`);
    target = next;
  }
}

/** The response text, refusing one over MAX_RESPONSE_BYTES without reading the rest. */
async function readBounded(res: Response, shown: string, attempt: number): Promise<string> {
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await res.body.cancel().catch(() => {});
      throw new HttpError(res.status, shown, `response over ${MAX_RESPONSE_BYTES / 1024 / 1024} MB: not read`, attempt);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Why fetch failed, from undici's `cause` (`connect ECONNREFUSED 127.0.0.1:9`), not its bare "fetch failed". */
function networkReason(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  const cause = e.cause;
  if (cause?.message) return cause.code && !cause.message.includes(cause.code) ? `${cause.code}: ${cause.message}` : cause.message;
  return e.message;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
