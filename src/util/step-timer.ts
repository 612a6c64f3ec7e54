import { performance } from 'node:perf_hooks';

/** One timed step of a run: wall seconds and the CPU seconds (user + system) of this process meanwhile. */
export interface StepTiming {
  step: string;
  wallSeconds: number;
  /** CPU of the whole process (every thread) while the step ran, above wall when lanes ran in parallel; absent for a unit of a lane. */
  cpuSeconds?: number;
  /** Set for a unit that ran on a lane (kind `pipeline` or `study`, registry id; lane 0 = main thread), so the next run can schedule the costliest first. */
  unit?: { kind: string; id: string; lane: number; reused?: true; ranSeconds?: number };
}

export interface TimingReport {
  steps: StepTiming[];
  totalWallSeconds: number;
  totalCpuSeconds: number;
  /** Peak resident memory of the process so far (process.resourceUsage().maxRSS), in MB (10^6 bytes). */
  peakRssMb: number;
}

/**
 * Times the steps of a run so a regression shows in every run's output. Steps are recorded in
 * the order they finish; nested steps are not supported (each step is one top-level phase).
 */
export class StepTimer {
  private readonly steps: StepTiming[] = [];
  private readonly startedWall = performance.now();
  private readonly startedCpu = process.cpuUsage();

  /** Times `fn` as one step and returns its result. */
  async time<T>(step: string, fn: () => Promise<T> | T): Promise<T> {
    const wall = performance.now();
    const cpu = process.cpuUsage();
    try {
      return await fn();
    } finally {
      this.record(step, (performance.now() - wall) / 1000, cpuSecondsSince(cpu));
    }
  }

  /** Records a step timed elsewhere (a unit on a worker lane: its CPU is not separable from the process's). */
  record(step: string, wallSeconds: number, cpuSeconds?: number, unit?: StepTiming['unit']): void {
    this.steps.push({ step, wallSeconds, ...(cpuSeconds === undefined ? {} : { cpuSeconds }), ...(unit ? { unit } : {}) });
  }

  /** A start point for recordSince (for a step that is not one function). */
  mark(): { wall: number; cpu: NodeJS.CpuUsage } {
    return { wall: performance.now(), cpu: process.cpuUsage() };
  }

  recordSince(step: string, mark: { wall: number; cpu: NodeJS.CpuUsage }): void {
    this.record(step, (performance.now() - mark.wall) / 1000, cpuSecondsSince(mark.cpu));
  }

  report(): TimingReport {
    return {
      steps: [...this.steps],
      totalWallSeconds: (performance.now() - this.startedWall) / 1000,
      totalCpuSeconds: cpuSecondsSince(this.startedCpu),
      // maxRSS is in KiB.
      peakRssMb: (process.resourceUsage().maxRSS * 1024) / 1e6,
    };
  }
}

export function cpuSecondsSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1e6;
}

/**
 * The timing table printed at the end of a run: step, wall s, share of the run's wall time, CPU s.
 * Indented rows are units that ran on parallel lanes: their shares can add up to more than
 * their phase's.
 */
export function formatTimingTable(report: TimingReport): string[] {
  const width = Math.max(5, ...report.steps.map((s) => s.step.length));
  const line = (step: string, wall: string, share: string, cpu: string) =>
    `${step.padEnd(width)}  ${wall.padStart(8)}  ${share.padStart(6)}  ${cpu.padStart(8)}`;
  const total = report.totalWallSeconds || 1;
  return [
    line('step', 'wall s', 'share', 'cpu s'),
    // A restored unit took no time here: the `reused units` step stands for them all.
    ...report.steps
      .filter((s) => !s.unit?.reused)
      .map((s) => line(s.step, s.wallSeconds.toFixed(2), `${((100 * s.wallSeconds) / total).toFixed(1)}%`, s.cpuSeconds?.toFixed(2) ?? '')),
    line('total', report.totalWallSeconds.toFixed(2), '100.0%', report.totalCpuSeconds.toFixed(2)),
    `peak RSS ${Math.round(report.peakRssMb)} MB (${Math.round((report.peakRssMb * 1e6) / 2 ** 20)} MiB)`,
  ];
}
