import { createHash } from 'node:crypto';
import { redactJson } from '../mcp/redact.ts';
import { canonicalJson } from '../pipelines/adol/json.ts';
import { InputError } from '../util/input-error.ts';
import { endsTheRun, type EndpointState } from './agent-loop.ts';
import { HttpError, NoResponseError } from './http.ts';
import type { LiveJournal, RecordedCall, RecordedCalls, RecordedError } from './journal.ts';
import type { CallCoordinates, ChatClient, ChatExchange, ChatRequest } from './types.ts';

export interface JournaledClientOptions {
  /** The run's endpoint state, as the agent loop keeps it (whether a failure ends the run depends on it). */
  endpoint: EndpointState;
  /** Redacted from the journal, and from the request before it is hashed (so a reply that echoed one hashes alike when replayed). */
  secrets: readonly string[];
  /** Merge: the calls the shards recorded. Every call is replayed from them; none is sent. */
  shards?: RecordedCalls;
}

/**
 * The client a live run sends through, so that it can be resumed. Each call is looked up by its
 * place in the run (pipeline, task, turn, step) in the run's journal, then in the shards'
 * journals when merging. A recorded call is replayed (the response returned, or the failure
 * thrown, as the endpoint gave them) once its request is checked to be the one recorded;
 * the agent loop then charges, saves and grades it as it did the first time. Any other call is
 * sent, and its outcome appended to the journal before the run sees it. A failure that ends the
 * run (a bad key, a refused redirect, nothing reachable) is not recorded: the run started again
 * sends that call again.
 */
export class JournaledClient implements ChatClient {
  readonly provider: ChatClient['provider'];
  readonly url: string;
  /** Calls replayed from a journal, and calls sent to the endpoint. */
  replayed = 0;
  sent = 0;
  private seq = 0;

  constructor(
    private readonly inner: ChatClient,
    private readonly journal: LiveJournal,
    private readonly options: JournaledClientOptions,
  ) {
    this.provider = inner.provider;
    this.url = inner.url;
  }

  body(request: ChatRequest): unknown {
    return this.inner.body(request);
  }

  async complete(request: ChatRequest, call: CallCoordinates): Promise<ChatExchange> {
    const seq = ++this.seq;
    const key = requestKey(this.inner, request, this.options.secrets);
    const own = this.journal.recorded.find(call);
    const recorded = own ?? this.options.shards?.find(call);
    if (recorded) {
      if (recorded.entry.key !== key)
        throw new InputError(
          `${recorded.file} line ${recorded.line}`,
          '$.key',
          `the request this run sends as ${callText(call)}`,
          'another request (the code, catalog or tasks changed since it was recorded): start over with --fresh, or choose another --out',
        );
      if (!own) this.journal.append({ ...recorded.entry, seq });
      this.replayed++;
      return replay(recorded, this.inner, request);
    }
    if (this.options.shards)
      throw new InputError('merge', '', `a part holding the response to ${callText(call)}`, 'none (the parts are not of this run)');
    this.sent++;
    try {
      const exchange = await this.inner.complete(request, call);
      const { response, responseBody, attempts, latencyMs } = exchange;
      this.journal.append({ seq, call, key, outcome: { kind: 'response', response, responseBody, attempts, latencyMs } });
      return exchange;
    } catch (err) {
      if (!(err instanceof InputError) && !endsTheRun(err, this.options.endpoint))
        this.journal.append({ seq, call, key, outcome: { kind: 'failure', error: recordedError(err) } });
      throw err;
    }
  }
}

/**
 * SHA-256 of a request exactly as it is sent: the provider, the endpoint (without credentials or
 * query values) and the canonical (key-sorted) JSON of the body, with the run's secrets redacted.
 */
function requestKey(client: ChatClient, request: ChatRequest, secrets: readonly string[]): string {
  const body = redactJson(client.body(request), secrets);
  return createHash('sha256')
    .update(canonicalJson({ provider: client.provider, url: client.url, body }))
    .digest('hex');
}

function replay({ entry }: RecordedCall, client: ChatClient, request: ChatRequest): ChatExchange {
  const outcome = entry.outcome;
  if (outcome.kind === 'failure') throw replayedError(outcome.error);
  const { response, responseBody, attempts, latencyMs } = outcome;
  return { response, url: client.url, requestBody: client.body(request), responseBody, attempts, latencyMs };
}

function recordedError(err: unknown): RecordedError {
  if (err instanceof HttpError) return { kind: 'http', status: err.status, url: err.url, attempts: err.attempts, message: err.message };
  if (err instanceof NoResponseError) return { kind: 'no-response', message: err.message, connectFailed: err.connectFailed };
  return { kind: 'other', message: err instanceof Error ? err.message : String(err) };
}

function replayedError(e: RecordedError): Error {
  if (e.kind === 'no-response') return new NoResponseError(e.message, e.connectFailed);
  if (e.kind === 'other') return new Error(e.message);
  // The message as first thrown (the body it quoted is not kept: only the message is ever shown).
  const err = new HttpError(e.status, e.url, '', e.attempts);
  err.message = e.message;
  return err;
}

function callText(c: CallCoordinates): string {
  return `pipeline ${c.pipeline}, task ${c.taskId}, turn ${c.turn}, step ${c.step}`;
}
