import { performance } from 'node:perf_hooks';

/** When a run started, and how long it has run (on the monotonic clock, so a clock change mid-run cannot make it negative). */
export class RunClock {
  private readonly started = performance.now();
  private readonly startedAt = new Date();

  /** The manifest's start, finish and seconds, as of now. */
  span(): { startedAt: string; finishedAt: string; seconds: number } {
    const elapsed = performance.now() - this.started;
    return {
      startedAt: this.startedAt.toISOString(),
      finishedAt: new Date(this.startedAt.getTime() + elapsed).toISOString(),
      seconds: elapsed / 1000,
    };
  }
}
