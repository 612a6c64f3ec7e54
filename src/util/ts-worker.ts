import { Worker } from 'node:worker_threads';

/**
 * Starts a worker thread running a TypeScript module. Node 20 does not pass the tsx loader
 * that runs this process on to worker threads (a `.ts` entry fails with "Unknown file
 * extension"), so the worker starts from a one-line bootstrap that imports the module through
 * tsx's API. Works under `tsx`, `node --import tsx` and vitest alike.
 */
export function startTsWorker(
  module: URL,
  workerData: unknown,
  limits?: { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb?: number },
): Worker {
  const api = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(api)}).then(({ tsImport }) => tsImport(${JSON.stringify(module.href)}, ${JSON.stringify(module.href)}))`;
  return new Worker(bootstrap, { eval: true, workerData, ...(limits ? { resourceLimits: limits } : {}) });
}
