import { Ajv } from 'ajv';
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, rmSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { redactJson } from '../mcp/redact.ts';
import type { ShardSpec } from '../results/shard-part.ts';
import { writeFileAtomic } from '../util/files.ts';
import { InputError } from '../util/input-error.ts';
import { exchangeFileName, REQUESTS_DIR } from './recorder.ts';
import { identityDifference, shownValue, type LiveRunIdentity } from './run-identity.ts';
import type { CallCoordinates, ChatResponse } from './types.ts';

/**
 * A live run's checkpoint: `live-journal.jsonl` in its output folder. The first line says which
 * run it is (its identity and shard); every further line is one model call, appended and
 * fsync'd as the call completes and before the run goes on: its place in the run, a hash of the
 * request, and the response (or the failure that failed its task). A run started again with the
 * same settings replays the recorded calls instead of sending them (src/live/journaled-client.ts),
 * so a run killed at any moment loses at most the call in flight. A torn last line (a kill
 * mid-write) is ignored, and cut off before the next append.
 */
export const JOURNAL_FILE = 'live-journal.jsonl';
const JOURNAL_FORMAT = 'tooltax-live-journal/1';

interface JournalHeader {
  format: typeof JOURNAL_FORMAT;
  run: LiveRunIdentity;
  /** The shard of the run this folder holds (null: the whole run). */
  shard: ShardSpec | null;
}

/** A failure as the run saw it: enough to throw the same error again (class, status, message). */
export type RecordedError =
  | { kind: 'http'; status: number; url: string; attempts: number; message: string }
  | { kind: 'no-response'; message: string; connectFailed: boolean }
  | { kind: 'other'; message: string };

export type RecordedOutcome =
  | { kind: 'response'; response: ChatResponse; responseBody: unknown; attempts: number; latencyMs: number }
  | { kind: 'failure'; error: RecordedError };

export interface JournalEntry {
  /** Which call of the run it was (1-based; its saved exchange's number). */
  seq: number;
  call: CallCoordinates;
  /** SHA-256 of the request as sent (src/live/journaled-client.ts). */
  key: string;
  outcome: RecordedOutcome;
}

/** A recorded call and where it was read. */
export interface RecordedCall {
  entry: JournalEntry;
  file: string;
  line: number;
}

/** Recorded calls by their place in a run (pipeline, task, turn, step). */
export class RecordedCalls {
  private readonly byCall = new Map<string, RecordedCall>();

  add(recorded: RecordedCall): void {
    this.byCall.set(callKey(recorded.entry.call), recorded);
  }

  addAll(other: RecordedCalls): void {
    for (const recorded of other.byCall.values()) this.add(recorded);
  }

  find(call: CallCoordinates): RecordedCall | undefined {
    return this.byCall.get(callKey(call));
  }

  get size(): number {
    return this.byCall.size;
  }

  /** The saved exchanges of the recorded calls, relative to the run's folder. */
  requestFiles(): string[] {
    return [...this.byCall.values()].map(
      ({ entry }) => `${REQUESTS_DIR}/${exchangeFileName(entry.seq, entry.call, entry.outcome.kind === 'failure')}`,
    );
  }
}

const callKey = (c: CallCoordinates) => `${c.pipeline}\u0000${c.taskId}\u0000${c.turn}\u0000${c.step}`;

/** The journal a run appends to, with the calls a previous start of the same run recorded. */
export class LiveJournal {
  private constructor(
    readonly path: string,
    private readonly fd: number,
    readonly recorded: RecordedCalls,
    private readonly secrets: readonly string[],
  ) {}

  /**
   * Opens the journal in `dir` for a run with this identity: resumes a journal of the same run
   * (its torn last line cut off), starts one where there is none, and refuses, in one line
   * naming the first difference, a journal of a run with other settings.
   */
  static open(dir: string, run: LiveRunIdentity, shard: ShardSpec | null, secrets: readonly string[]): LiveJournal {
    const path = join(dir, JOURNAL_FILE);
    const read = existsSync(path) ? readJournal(path) : undefined;
    if (read) {
      const how = 'resume it with its own options, start over with --fresh, or choose another --out';
      const diff = identityDifference(read.header.run, run);
      if (diff)
        throw new InputError(
          path,
          `$.run.${diff.path}`,
          `the journal of a run with this run's ${diff.option} (${shownValue(diff.here)})`,
          `a run with ${shownValue(diff.recorded)}: ${how}`,
        );
      if (JSON.stringify(read.header.shard) !== JSON.stringify(shard))
        throw new InputError(path, '$.shard', `the journal of ${shardText(shard)}`, `one of ${shardText(read.header.shard)}: ${how}`);
      truncateSync(path, read.validBytes);
    } else {
      writeFileAtomic(path, `${JSON.stringify({ format: JOURNAL_FORMAT, run, shard } satisfies JournalHeader)}\n`);
    }
    const fd = openSync(path, 'a');
    fsyncSync(fd);
    return new LiveJournal(path, fd, read?.recorded ?? new RecordedCalls(), secrets);
  }

  /** Appends one call and waits until it is on disk. */
  append(entry: JournalEntry): void {
    writeSync(this.fd, `${JSON.stringify(redactJson(entry, this.secrets))}\n`);
    fsyncSync(this.fd);
  }

  close(): void {
    closeSync(this.fd);
  }
}

/**
 * `--fresh`: removes the journal in `dir` and the exchanges it says its run saved, nothing else.
 * A damaged journal cannot say which: it alone goes.
 */
export function forgetJournal(dir: string): void {
  const path = join(dir, JOURNAL_FILE);
  if (!existsSync(path)) return;
  let files: string[] = [];
  try {
    files = readJournal(path)?.recorded.requestFiles() ?? [];
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
  }
  for (const file of files) rmSync(join(dir, ...file.split('/')), { force: true });
  rmSync(path, { force: true });
}

/** Whether `dir` holds a live run's journal. */
export function hasJournal(dir: string): boolean {
  return existsSync(join(dir, JOURNAL_FILE));
}

/** The calls recorded in the journal in `dir` (a shard's, for a merge), checked like any input. */
export function readRecordedCalls(dir: string): RecordedCalls {
  const path = join(dir, JOURNAL_FILE);
  const read = existsSync(path) ? readJournal(path) : undefined;
  if (!read) throw new InputError(path, '', "a live run's journal", 'nothing');
  return read.recorded;
}

function shardText(shard: ShardSpec | null): string {
  return shard ? `shard ${shard.index}/${shard.count} (--shard)` : 'the whole run (no --shard)';
}

const STRING = { type: 'string' };
const arrayOfObjects = (required: string[], properties: Record<string, unknown>) => ({
  type: 'array',
  items: { type: 'object', required, properties },
});
const COUNT = { type: 'integer', minimum: 0 };
const ENTRY_SCHEMA = {
  type: 'object',
  required: ['seq', 'call', 'key', 'outcome'],
  properties: {
    seq: { type: 'integer', minimum: 1 },
    call: {
      type: 'object',
      required: ['pipeline', 'taskId', 'turn', 'step'],
      properties: { pipeline: STRING, taskId: STRING, turn: COUNT, step: COUNT },
    },
    key: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    outcome: {
      type: 'object',
      required: ['kind'],
      properties: { kind: { enum: ['response', 'failure'] } },
      if: { properties: { kind: { const: 'response' } } },
      then: {
        required: ['response', 'responseBody', 'attempts', 'latencyMs'],
        properties: {
          attempts: { type: 'integer', minimum: 1 },
          latencyMs: { type: 'number', minimum: 0 },
          response: {
            type: 'object',
            required: ['text', 'toolCalls', 'usage', 'stopReason'],
            properties: {
              text: STRING,
              stopReason: STRING,
              toolCalls: arrayOfObjects(['id', 'name', 'argumentsText'], {
                id: STRING,
                name: STRING,
                argumentsText: STRING,
                argumentsOverLimit: STRING,
                namespace: STRING,
                search: { type: 'boolean' },
              }),
              // Server-side tool searches, sent back in the next request (src/live/types.ts, LiveSearch).
              searches: arrayOfObjects(['execution', 'blocks'], { execution: { const: 'server' }, blocks: { type: 'array' } }),
              usage: {
                type: ['object', 'null'],
                required: ['inputTokens', 'outputTokens', 'cachedInputTokens'],
                properties: { inputTokens: COUNT, outputTokens: COUNT, cachedInputTokens: COUNT },
              },
            },
          },
        },
      },
      else: {
        required: ['error'],
        properties: {
          error: {
            type: 'object',
            required: ['kind', 'message'],
            properties: {
              kind: { enum: ['http', 'no-response', 'other'] },
              message: STRING,
              status: { type: 'integer' },
              url: STRING,
              attempts: { type: 'integer' },
              connectFailed: { type: 'boolean' },
            },
            if: { properties: { kind: { const: 'http' } } },
            then: { required: ['status', 'url', 'attempts'] },
            else: { if: { properties: { kind: { const: 'no-response' } } }, then: { required: ['connectFailed'] } },
          },
        },
      },
    },
  },
};
const validEntry = new Ajv({ strict: false, allErrors: false }).compile<JournalEntry>(ENTRY_SCHEMA);

/**
 * Reads a journal: its header, its calls, and how many bytes of it are whole lines. The last
 * line may be torn (the process was killed writing it): it is left out. Any other line that is
 * not a call is a damaged journal: one line naming it. Undefined when not even the header is
 * whole (it is written at once, so only a run killed creating it leaves that).
 */
function readJournal(path: string): { header: JournalHeader; recorded: RecordedCalls; validBytes: number } | undefined {
  const bytes = readFileSync(path);
  const recorded = new RecordedCalls();
  let header: JournalHeader | undefined;
  let validBytes = 0;
  for (let line = 1; ; line++) {
    const end = bytes.indexOf(0x0a, validBytes);
    if (end < 0) break; // a torn last line, or none
    let value: unknown;
    try {
      value = JSON.parse(bytes.toString('utf8', validBytes, end));
    } catch {
      // Only the last line can be torn; a bad line with more after it is damage.
      if (end + 1 >= bytes.length) break;
      throw new InputError(`${path} line ${line}`, '$', 'a JSON line', 'unreadable text (a damaged journal: start over with --fresh)');
    }
    if (line === 1) {
      const h = value as Partial<JournalHeader>;
      if (h?.format !== JOURNAL_FORMAT || typeof h.run !== 'object' || h.run === null)
        throw new InputError(`${path} line 1`, '$.format', `"${JOURNAL_FORMAT}" with the run's settings`, shownValue(h?.format ?? null));
      header = h as JournalHeader;
    } else if (validEntry(value)) recorded.add({ entry: value, file: path, line });
    else {
      const at = validEntry.errors?.[0];
      throw new InputError(
        `${path} line ${line}`,
        `$${(at?.instancePath ?? '').replace(/\//g, '.')}`,
        `a recorded call (${at?.message ?? 'valid'})`,
        'something else (a damaged journal: start over with --fresh)',
      );
    }
    validBytes = end + 1;
  }
  return header ? { header, recorded, validBytes } : undefined;
}
