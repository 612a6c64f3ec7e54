import { describe, expect, it } from 'vitest';
import { formatTimingTable, StepTimer } from '../../src/util/step-timer.ts';

describe('StepTimer', () => {
  it('reports the peak RSS in MB (10^6 bytes), printed with its MiB beside it', () => {
    const report = new StepTimer().report();
    // maxRSS is in KiB: the MB figure is 1.024 times the KiB count / 1000, never the MiB one.
    const kib = process.resourceUsage().maxRSS;
    expect(report.peakRssMb).toBeGreaterThanOrEqual((kib * 1024) / 1e6 - 50);
    expect(report.peakRssMb).toBeGreaterThan(kib / 1024);
    const last = formatTimingTable({ steps: [], totalWallSeconds: 1, totalCpuSeconds: 1, peakRssMb: 600 }).at(-1);
    expect(last).toBe('peak RSS 600 MB (572 MiB)');
  });
});
