/**
 * The projection layer: measured TurnRecords + the parameters in ./params.ts + a seed →
 * projected task success, latency, cost, quality and failure causes (marked † in reports).
 */
export { PROJECTION_MODEL, PROJECTION_PARAMS, SENSITIVITY_KEYS, SIMULATION, NOLIMA_CURVE, pv, scaleParam, withParam } from './params.ts';
export type { Param, ParamKey, ProjectionParams } from './params.ts';
export { projectPipeline, groupTasks } from './project.ts';
export type { ProjectOptions, ProjectionResult } from './project.ts';
export { FAILURE_CAUSES, simulateTask } from './simulate.ts';
export type { FailureCause, TaskOutcome, TaskTraits } from './simulate.ts';
export { preconditionViolations } from './preconditions.ts';
export { sensitivityAnalysis, rankOrder, kendallTau, ordersOf, RANK_METRICS } from './sensitivity.ts';
export { projectionStudy, runProjectionStudy, hasHallucinationGate } from './study.ts';
export { ablationSuccessTable } from './tables.ts';
export type { ProjectionTurn } from './turn-model.ts';
