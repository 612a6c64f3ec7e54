// Type declarations for the two wink packages used here (they ship none).
declare module 'wink-porter2-stemmer' {
  const stem: (word: string) => string;
  export default stem;
}

declare module 'wink-bm25-text-search' {
  interface WinkBm25 {
    defineConfig(config: { fldWeights: Record<string, number>; bm25Params?: { k1?: number; b?: number; k?: number } }): boolean;
    definePrepTasks(tasks: ((input: string) => string[])[], field?: string): number;
    addDoc(doc: Record<string, string>, id: number | string): number;
    consolidate(fp?: number): boolean;
    search(text: string, limit?: number): [string, number][];
  }
  const bm25: () => WinkBm25;
  export default bm25;
}
