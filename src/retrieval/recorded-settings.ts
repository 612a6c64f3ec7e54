import type { FittedPart } from '../results/pipeline-settings.ts';
import type { FittedRetriever, Retriever } from './types.ts';

/** The retriever's fitted part, for PipelineSettings.fitted (none for a retriever that learns nothing): what this fit was trained on, else the retriever's rule. */
export function retrieverFit(retriever: Retriever | undefined, fitted?: FittedRetriever): FittedPart[] {
  const on = fitted?.fittedOn ?? retriever?.fittedOn;
  return retriever && on ? [{ part: `retriever ${retriever.name}`, on }] : [];
}

/**
 * The fields every retrieval pipeline records about the retriever it ranks with (run.json,
 * table notes). `encoder` repeats the retriever's name so readers written for the paper form
 * (an encoder) still find what ranked the tools.
 */
export function retrieverRecord(retriever: Retriever) {
  return {
    encoder: retriever.name,
    encoderDescription: retriever.description,
    retriever: retriever.name,
    retrieverDescription: retriever.description,
    index: 'exact ranking of every tool',
  };
}
