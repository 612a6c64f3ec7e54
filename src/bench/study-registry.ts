import type { Study } from './studies.ts';
import { adolStudy } from '../pipelines/adol/study.ts';
import { projectionStudy } from '../sim/projection/study.ts';
import { scalingStudy } from '../studies/scaling.ts';
import { adversarialStudy } from '../studies/adversarial.ts';
import { promptCachingStudy } from '../studies/prompt-caching.ts';
import { thresholdCalibrationStudy } from '../pipelines/tool-attention/calibration.ts';
import { routerLatencyStudy } from '../retrieval/router-latency-study.ts';
import { aacpStudy } from '../pipelines/aacp/bench-study.ts';
import { kvSchemaStudy } from '../pipelines/kv-schema/bench-study.ts';

/** Studies run after the pipelines, in this order; each adds its tables to the results. */
export const STUDIES: Study[] = [
  projectionStudy,
  scalingStudy,
  adversarialStudy,
  promptCachingStudy,
  adolStudy,
  thresholdCalibrationStudy,
  routerLatencyStudy,
  aacpStudy,
  kvSchemaStudy,
];
