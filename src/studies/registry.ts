import type { Study } from './types.ts';
import { STUDY_IDS, type StudyId } from './ids.ts';
import { adolStudy } from './adol/study.ts';
import { realSuiteStudy } from './real-suite/study.ts';
import { hostSearchStudy } from './host-search/study.ts';
import { searchCalibrationStudy } from './search-calibration/study.ts';
import { projectionStudy } from './projection/study.ts';
import { scalingStudy } from './scaling/study.ts';
import { adversarialStudy } from './adversarial/study.ts';
import { promptCachingStudy } from './prompt-caching/study.ts';
import { thresholdCalibrationStudy } from './threshold-calibration/study.ts';
import { routerLatencyStudy } from './router-latency/study.ts';
import { aacpStudy } from './aacp/study.ts';
import { kvSchemaStudy } from './kv-schema/study.ts';
import { retrievalStudy } from './retrieval/study.ts';
import { checkedStudyRegistry } from './check-registry.ts';

/** Every study by id: the type asks for one study per id of ./ids.ts and no other. */
const BY_ID: { readonly [K in StudyId]: Study } = {
  projection: projectionStudy,
  'real-suite': realSuiteStudy,
  'host-search': hostSearchStudy,
  'search-calibration': searchCalibrationStudy,
  scaling: scalingStudy,
  adversarial: adversarialStudy,
  'prompt-caching': promptCachingStudy,
  adol: adolStudy,
  'threshold-calibration': thresholdCalibrationStudy,
  retrieval: retrievalStudy,
  'router-latency': routerLatencyStudy,
  aacp: aacpStudy,
  'kv-schema': kvSchemaStudy,
};

/** Studies run with the pipelines, in the order of ./ids.ts; each adds its tables to the results. Checked when this module loads, and read-only. */
export const STUDIES: readonly Study[] = checkedStudyRegistry(
  STUDY_IDS.map((id) => BY_ID[id]),
  STUDY_IDS,
);
