import { aacpHopsChart } from './aacp-hops.ts';
import type { ChartDef } from './chart.ts';
import { f1ThetaChart } from './f1-theta.ts';
import { generalisationChart } from './generalisation.ts';
import { paretoChart } from './pareto.ts';
import { recallAtKChart } from './recall-at-k.ts';
import { reductionChart } from './reduction.ts';
import { rhoScalingChart } from './rho-scaling.ts';
import { toolTokensChart } from './tool-tokens.ts';

/** Every chart of the report set, in page order. Adding a chart is one entry (and its builder file). */
export const CHARTS: readonly ChartDef[] = [
  toolTokensChart,
  reductionChart,
  rhoScalingChart,
  f1ThetaChart,
  recallAtKChart,
  generalisationChart,
  paretoChart,
  aacpHopsChart,
];
