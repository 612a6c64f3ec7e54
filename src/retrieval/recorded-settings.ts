import type { Retriever } from './types.ts';

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
