/**
 * Immutable bytes that every thread of the process can share, by key: the vector caches'
 * segment files (./vector-segments.ts) and the tokenizers' rank tables (../tokens/rank-table.ts).
 * A thread reads or builds them once into a SharedArrayBuffer; the bench hands what its thread
 * holds to each worker it starts (processSharedBytes / adoptProcessSharedBytes), so a worker
 * uses the same memory instead of building its own copy. Nothing may write to them once made.
 */
const buffers = new Map<string, SharedArrayBuffer>();

/** The bytes under `key`: made (read or built) once per process, then shared. */
export function sharedBytes(key: string, make: () => SharedArrayBuffer): SharedArrayBuffer {
  let bytes = buffers.get(key);
  if (!bytes) buffers.set(key, (bytes = make()));
  return bytes;
}

/**
 * What this thread holds that a worker thread has not been given yet (adoptProcessSharedBytes
 * there), marked as given in `given`: all of it for a worker it starts, then what it has read or
 * written since, with each unit it sends (a cold run writes score segments while the lanes run).
 */
export function processSharedBytes(given = new Set<string>()): Map<string, SharedArrayBuffer> {
  const fresh = new Map<string, SharedArrayBuffer>();
  for (const [key, bytes] of buffers)
    if (!given.has(key)) {
      fresh.set(key, bytes);
      given.add(key);
    }
  return fresh;
}

/** Let go of bytes this thread no longer needs (segments merged into one); other threads keep theirs. */
export function forgetProcessSharedBytes(keys: Iterable<string>): void {
  for (const key of keys) buffers.delete(key);
}

/** Use bytes made by another thread instead of making them again. */
export function adoptProcessSharedBytes(shared: ReadonlyMap<string, SharedArrayBuffer> | undefined): void {
  for (const [key, bytes] of shared ?? []) if (!buffers.has(key)) buffers.set(key, bytes);
}
