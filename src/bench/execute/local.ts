import { runUnits } from './run-units.ts';
import type { Execution } from './types.ts';

/** A whole run in this process: every unit, on the local lanes. */
export function localExecution(): Execution {
  return {
    command: '',
    writesRun: true,
    merges: false,
    defaultResultsDir: (runDefault) => runDefault,
    execute: (ctx) =>
      runUnits(ctx, ctx.plan.units, (unit, result, lane) => {
        ctx.finished(unit, result, lane);
        ctx.collected.add(unit, result);
      }),
  };
}
