import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../util/input-error.ts';
import { readJsonFileIfValid, type JsonFileFormat } from '../util/json-file.ts';

export const LOCK_FILE = '.tooltax-lock';

interface LockInfo {
  pid: number;
  startedAt: string;
  command: string;
}

export interface RunLock {
  readonly dir: string;
  release(): void;
}

/**
 * An exclusive lock on an output folder for one bench (or report) process, so two runs never
 * write into one folder. The lock file is created with O_EXCL and holds the owner's pid; a
 * lock whose process is gone (killed by a signal) is taken over. The lock is released on a
 * normal exit.
 */
export function acquireRunLock(dir: string, command: string): RunLock {
  const file = join(dir, LOCK_FILE);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw lockError(dir, file, err);
  }
  const info: LockInfo = { pid: process.pid, startedAt: new Date().toISOString(), command };
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, `${JSON.stringify(info)}\n`);
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw lockError(dir, file, err);
      const owner = readLock(file);
      if (owner && owner.pid !== process.pid && isAlive(owner.pid))
        throw new InputError(
          dir,
          '',
          'an output folder no other tooltax run is using',
          `one in use by pid ${owner.pid} (${owner.command}, started ${owner.startedAt}); wait for it, stop it, or choose another folder`,
        );
      rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    if (readLock(file)?.pid === process.pid) rmSync(file, { force: true });
    process.off('exit', release);
  };
  // No SIGINT/SIGTERM handler on purpose: a handler runs only when the event loop is free, and
  // the bench computes synchronously for seconds at a time, so a signal must keep its default
  // action (stop now). The lock it leaves names a dead pid and is taken over by the next run.
  process.on('exit', release);
  return { dir, release };
}

/** A lock file as read; one that does not fit (unreadable or half-written) is treated as stale. */
const LOCK_JSON: JsonFileFormat<LockInfo> = {
  what: 'a run lock',
  schema: {
    type: 'object',
    required: ['pid', 'startedAt', 'command'],
    properties: { pid: { type: 'integer', minimum: 1 }, startedAt: { type: 'string' }, command: { type: 'string' } },
  },
};

function readLock(file: string): LockInfo | undefined {
  return readJsonFileIfValid(file, LOCK_JSON);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A zombie (exited, not yet reaped: common in containers without an init) answers signal 0.
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc (macOS): signal 0 is all we have
  }
}

function lockError(dir: string, file: string, err: unknown): InputError {
  const code = (err as NodeJS.ErrnoException).code ?? String(err);
  return new InputError(dir, '', 'a writable output folder', `${code} creating ${file}`);
}
