import { AsyncLocalStorage } from 'node:async_hooks';
import { closeSync, mkdirSync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { threadId } from 'node:worker_threads';

/** The files written under recordWrites, by the call (async context) that wrote them. */
const recording = new AsyncLocalStorage<Set<string>>();

/**
 * Runs `fn` and returns, with its value, the absolute paths of the files it wrote through
 * writeFileAtomic (also from the promises it awaited; not another call's running beside it). A
 * bench unit's result is its value and these files: what a later run restores instead of running it.
 */
export async function recordWrites<T>(fn: () => Promise<T>): Promise<{ value: T; written: string[] }> {
  const written = new Set<string>();
  const value = await recording.run(written, fn);
  return { value, written: [...written] };
}

/**
 * Write a file so that a reader never sees half of it and a crash never loses the old
 * version: write a temporary sibling, then rename it over the target. The sibling's name is
 * this writer's own (process, thread, count): two bench lanes writing the same file in the same
 * millisecond (two Tool Attention variants saving the same θ calibration) shared one name, and
 * the second rename failed with ENOENT.
 */
export function writeFileAtomic(path: string, content: string | Uint8Array | Iterable<Uint8Array>): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${threadId}.${(tempCounter++).toString(36)}.tmp`;
  if (typeof content === 'string' || content instanceof Uint8Array) writeFileSync(tmp, content);
  else writeChunks(tmp, content);
  renameSync(tmp, path);
  recording.getStore()?.add(resolve(path));
}

/** Content given in chunks is written as they come: a large file is never one string or buffer. */
function writeChunks(path: string, chunks: Iterable<Uint8Array>): void {
  const fd = openSync(path, 'w');
  try {
    for (const chunk of chunks) for (let at = 0; at < chunk.length;) at += writeSync(fd, chunk, at);
  } finally {
    closeSync(fd);
  }
}

let tempCounter = 0;

/** Stable JSON for committed files: two-space indent and a final newline. */
export function toStableJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
