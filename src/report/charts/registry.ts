import { SUITES, type Suite } from '../../table/suites.ts';
import { aacpHopsChart } from './aacp-hops.ts';
import type { ChartDef } from './chart.ts';
import { f1ThetaChart } from './f1-theta.ts';
import { generalisationChart } from './generalisation.ts';
import { paretoChart } from './pareto.ts';
import { recallAtKChart } from './recall-at-k.ts';
import { reductionChart } from './reduction.ts';
import { rhoScalingChart } from './rho-scaling.ts';
import { toolTokensChart } from './tool-tokens.ts';

/**
 * Every chart of the report set over these suites (src/table/suites.ts), in page order. Adding a
 * chart is one entry (and its builder file); a chart that draws each suite takes `suites`.
 */
export function chartsFor(suites: readonly Suite[]): ChartDef[] {
  return [
    toolTokensChart(suites),
    reductionChart,
    rhoScalingChart,
    f1ThetaChart,
    recallAtKChart(suites),
    generalisationChart(suites),
    paretoChart,
    aacpHopsChart,
  ];
}

/** The report set over the registry's suites. */
export const CHARTS: readonly ChartDef[] = chartsFor(SUITES);
