import type { Study } from './types.ts';
import { adolStudy } from './adol/study.ts';
import { realSuiteStudy } from './real-suite/study.ts';
import { projectionStudy } from './projection/study.ts';
import { scalingStudy } from './scaling/study.ts';
import { adversarialStudy } from './adversarial/study.ts';
import { promptCachingStudy } from './prompt-caching/study.ts';
import { thresholdCalibrationStudy } from './threshold-calibration/study.ts';
import { routerLatencyStudy } from './router-latency/study.ts';
import { aacpStudy } from './aacp/study.ts';
import { kvSchemaStudy } from './kv-schema/study.ts';
import { retrievalStudy } from './retrieval/study.ts';

/** Studies run after the pipelines, in this order; each adds its tables to the results. */
export const STUDIES: Study[] = [
  projectionStudy,
  realSuiteStudy,
  scalingStudy,
  adversarialStudy,
  promptCachingStudy,
  adolStudy,
  thresholdCalibrationStudy,
  retrievalStudy,
  routerLatencyStudy,
  aacpStudy,
  kvSchemaStudy,
];
