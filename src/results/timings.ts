import { join } from 'node:path';
import type { TimingReport } from '../util/step-timer.ts';
import { readJsonFileIfValid, type JsonFileFormat } from '../util/json-file.ts';
import { TIMINGS_FILE } from './write.ts';

const number = { type: 'number' } as const;

/** timings.json as read: what StepTimer.report() wrote (./write.ts writes it). */
export const TIMINGS_JSON: JsonFileFormat<TimingReport> = {
  what: 'the timings a run wrote (timings.json)',
  schema: {
    type: 'object',
    required: ['steps', 'totalWallSeconds', 'totalCpuSeconds', 'peakRssMb'],
    properties: {
      steps: {
        type: 'array',
        items: {
          type: 'object',
          required: ['step', 'wallSeconds'],
          properties: {
            step: { type: 'string' },
            wallSeconds: number,
            cpuSeconds: { ...number, nullable: true },
            unit: {
              type: 'object',
              nullable: true,
              required: ['kind', 'id', 'lane'],
              properties: {
                kind: { type: 'string' },
                id: { type: 'string' },
                lane: { type: 'integer' },
                // A unit restored from its record: ranSeconds is what it took when it ran.
                reused: { type: 'boolean', nullable: true },
                ranSeconds: { ...number, nullable: true },
              },
            },
          },
        },
      },
      totalWallSeconds: number,
      totalCpuSeconds: number,
      peakRssMb: number,
    },
  },
};

/** The timings of the run that last wrote `resultsDir`, when they are there and fit (a hint: the schedule, never a result, depends on them). */
export function readPreviousTimings(resultsDir: string): TimingReport | undefined {
  return readJsonFileIfValid(join(resultsDir, TIMINGS_FILE), TIMINGS_JSON);
}
