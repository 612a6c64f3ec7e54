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

/** Everything this thread holds, for a worker thread it starts (adoptProcessSharedBytes there). */
export function processSharedBytes(): Map<string, SharedArrayBuffer> {
  return new Map(buffers);
}

/** Use bytes made by another thread instead of making them again. */
export function adoptProcessSharedBytes(shared: ReadonlyMap<string, SharedArrayBuffer> | undefined): void {
  for (const [key, bytes] of shared ?? []) if (!buffers.has(key)) buffers.set(key, bytes);
}
