import { parentPort, workerData } from 'node:worker_threads';
import { createUseLiteEncoder, type UseLiteOptions } from './use-lite.ts';

/** Worker side of ./worker-pool.ts: one use-lite model per thread, requests answered in order. */
export interface EmbedRequest {
  id: number;
  texts: string[];
}
/**
 * The vectors of a request, end to end in one array (`dim` floats each): one transferred buffer
 * per request, not one 2 KB buffer per text allocated by this thread and freed by the main one
 * (~12,000 in a cold run's embedding pass).
 */
export type EmbedResponse = { id: number; packed: Float32Array; dim: number } | { id: number; error: string };

const encoder = await createUseLiteEncoder(workerData as UseLiteOptions);
let queue: Promise<void> = Promise.resolve();
parentPort!.on('message', (req: EmbedRequest) => {
  queue = queue.then(async () => {
    try {
      const vectors = await encoder.embed(req.texts);
      const dim = vectors[0]?.length ?? 0;
      const packed = new Float32Array(vectors.length * dim);
      vectors.forEach((v, i) => packed.set(v, i * dim));
      parentPort!.postMessage({ id: req.id, packed, dim } satisfies EmbedResponse, [packed.buffer as ArrayBuffer]);
    } catch (e) {
      parentPort!.postMessage({ id: req.id, error: e instanceof Error ? e.message : String(e) } satisfies EmbedResponse);
    }
  });
});
