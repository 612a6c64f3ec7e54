import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { BenchLanes, type LaneThread } from '../../src/bench/execute/lanes.ts';
import type { BenchInputs, BenchUnit } from '../../src/bench/types.ts';

describe('a lane thread started early', () => {
  it('fails the run with the error it raised before its lane listened (its modules did not load), and is ended', async () => {
    // A test stand-in for the lane's worker: an idle thread, and the error startLaneThread kept.
    const worker = new Worker('setInterval(() => {}, 1000);', { eval: true });
    let terminated = 0;
    const thread: LaneThread = {
      worker,
      earlyError: () => new Error('lane modules failed to load'),
      terminate: () => (terminated++, worker.terminate()),
    };
    const lanes = new BenchLanes({} as BenchInputs, 2, Promise.resolve(thread));
    const units: BenchUnit[] = [
      { kind: 'study', id: 'a' },
      { kind: 'study', id: 'b' },
    ];
    // Every unit to the worker lane: this thread's lane takes none.
    const run = lanes.run(units, undefined, (candidates, lane) => (lane === 1 ? candidates[0] : undefined));
    await expect(run).rejects.toThrow('lane modules failed to load');
    await lanes.close();
    // Ended once, by the lane that found the error: no thread is left running.
    expect(terminated).toBe(1);
    expect(worker.threadId).toBe(-1);
  });
});
