import { parentPort, workerData } from 'node:worker_threads';
import { createUseLiteEncoder, type UseLiteOptions } from './use-lite.ts';

/** Worker side of ./worker-pool.ts: one use-lite model per thread, requests answered in order. */
export interface EmbedRequest {
  id: number;
  texts: string[];
}
export type EmbedResponse = { id: number; vectors: Float32Array[] } | { id: number; error: string };

const encoder = await createUseLiteEncoder(workerData as UseLiteOptions);
let queue: Promise<void> = Promise.resolve();
parentPort!.on('message', (req: EmbedRequest) => {
  queue = queue.then(async () => {
    try {
      const vectors = await encoder.embed(req.texts);
      parentPort!.postMessage(
        { id: req.id, vectors } satisfies EmbedResponse,
        vectors.map((v) => v.buffer as ArrayBuffer),
      );
    } catch (e) {
      parentPort!.postMessage({ id: req.id, error: e instanceof Error ? e.message : String(e) } satisfies EmbedResponse);
    }
  });
});
