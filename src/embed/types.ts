/**
 * A sentence encoder. Every encoder returns L2-normalised vectors, so a dot product is the
 * cosine similarity. The name is recorded in every result file.
 */
export interface Encoder {
  /** `use-lite`, `minilm` or `tfidf`. */
  readonly name: string;
  /** What actually ran, for reports: model, package, version, fallback notes. */
  readonly description: string;
  readonly dim: number;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}
