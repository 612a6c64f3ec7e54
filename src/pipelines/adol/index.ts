/** ADOL (Agentic Data Optimization Layer): the four mechanisms, the pipeline factory and the study. */
export * from './dedup.ts';
export * from './duplication-stats.ts';
export * from './pipeline.ts';
export * from './published.ts';
export * from './require-output.ts';
export * from './retrieval.ts';
export * from './short-mode.ts';
export { adolStudy, realCatalogs, realCatalogDir, responseTokens, REAL_CATALOGS_ENV } from './study.ts';
