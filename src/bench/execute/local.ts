import { runUnits } from './run-units.ts';
import type { Execution } from './types.ts';

/** A whole run in this process: every unit, run on the local lanes or restored from its record. */
export function localExecution(): Execution {
  return {
    command: '',
    writesRun: true,
    merges: false,
    defaultResultsDir: (runDefault) => runDefault,
    execute: (ctx) => runUnits(ctx, ctx.plan.units, (unit, result) => ctx.collected.add(unit, result)),
  };
}
