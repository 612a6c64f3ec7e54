/**
 * Published figures, printed BESIDE our measurements with the difference, never used as our
 * results. Source: docs/reference/published-figures.md (the Tool Attention paper,
 * arXiv 2604.21816, Tables 2–5).
 */
/**
 * The catalog that reproduces the paper's testbed (Table 2). The figures below were published for
 * it: a column of them names it (`Column.publishedFor`), and a run on any other catalog drops
 * that column rather than compare unlike with unlike.
 */
export const TESTBED_CATALOG = 'synthetic-120';

export const PUBLISHED_SOURCE = 'Tool Attention paper (arXiv 2604.21816), via docs/reference/published-figures.md';

/** Table 2: the testbed. */
export const PUBLISHED_TESTBED = [
  { server: 'github', displayName: 'GitHub', tools: 30, meanTokens: 520 },
  { server: 'filesystem', displayName: 'Filesystem', tools: 10, meanTokens: 180 },
  { server: 'database', displayName: 'Database', tools: 20, meanTokens: 410 },
  { server: 'slack', displayName: 'Slack', tools: 15, meanTokens: 290 },
  { server: 'web', displayName: 'Web', tools: 10, meanTokens: 220 },
  { server: 'jira', displayName: 'Jira', tools: 35, meanTokens: 470 },
] as const;

export const PUBLISHED_TOTAL = { tools: 120, meanTokens: 394, totalTokens: 47_300 } as const;

export type PublishedServer = (typeof PUBLISHED_TESTBED)[number]['server'];

export function publishedServer(server: PublishedServer) {
  return PUBLISHED_TESTBED.find((s) => s.server === server)!;
}

/** Table 3, keyed by our pipeline ids. Only the first two columns are measurements in the paper. */
export const PUBLISHED_MAIN: Record<
  string,
  {
    method: string;
    toolTokens: number;
    toolTokensCi: number;
    rhoT30: number;
    success: number;
    p50: number;
    p95: number;
    costPerTask: number;
  }
> = {
  'b1-full-schema': {
    method: 'B1 Full-Schema',
    toolTokens: 47_312,
    toolTokensCi: 210,
    rhoT30: 0.24,
    success: 72.1,
    p50: 4.18,
    p95: 7.93,
    costPerTask: 0.213,
  },
  'b2-static-pruning': {
    method: 'B2 Static Pruning',
    toolTokens: 11_865,
    toolTokensCi: 145,
    rhoT30: 0.56,
    success: 57.6,
    p50: 3.77,
    p95: 7.11,
    costPerTask: 0.089,
  },
  'b3-simple-retrieval': {
    method: 'B3 Simple Retrieval',
    toolTokens: 4_082,
    toolTokensCi: 95,
    rhoT30: 0.78,
    success: 81.4,
    p50: 2.15,
    p95: 4.62,
    costPerTask: 0.041,
  },
  'b4-cli-lazy': {
    method: 'B4 CLI Lazy',
    toolTokens: 480,
    toolTokensCi: 30,
    rhoT30: 0.94,
    success: 88.0,
    p50: 2.4,
    p95: 5.35,
    costPerTask: 0.029,
  },
  'tool-attention': {
    method: 'Tool Attention',
    toolTokens: 2_368,
    toolTokensCi: 85,
    rhoT30: 0.91,
    success: 94.2,
    p50: 2.01,
    p95: 4.25,
    costPerTask: 0.03,
  },
};

/** Table 5 (ablation), keyed by our variant ids: tool tokens, success %, Δ pp vs the full mechanism. */
export const PUBLISHED_ABLATION: Record<string, { variant: string; toolTokens: number; success: number; delta: number }> = {
  'tool-attention': { variant: 'full', toolTokens: 2_368, success: 94.2, delta: 0 },
  'ta-no-hallucination-gate': { variant: 'without hallucination gate', toolTokens: 2_368, success: 91.0, delta: -3.2 },
  'ta-no-preconditions': { variant: 'without preconditions (ISO only)', toolTokens: 2_462, success: 90.6, delta: -3.6 },
  'ta-summaries-only': { variant: 'summaries only, phase 2 skipped', toolTokens: 0, success: 83.9, delta: -10.3 },
  'ta-phase1-only-k0': { variant: 'phase 1 only, k = 0', toolTokens: 4_820, success: 79.2, delta: -15.0 },
  'ta-encoder-minilm': { variant: 'MiniLM → MPNet', toolTokens: 2_371, success: 94.6, delta: 0.4 },
  'ta-encoder-tfidf': { variant: 'MiniLM → TF-IDF', toolTokens: 2_410, success: 86.1, delta: -8.1 },
  'ta-k5': { variant: 'k = 5', toolTokens: 1_320, success: 91.4, delta: -2.8 },
  'ta-k20': { variant: 'k = 20', toolTokens: 4_190, success: 94.4, delta: 0.2 },
  'ta-theta-0.15': { variant: 'θ = 0.15', toolTokens: 3_270, success: 93.9, delta: -0.3 },
  'ta-theta-0.40': { variant: 'θ = 0.40', toolTokens: 1_480, success: 88.2, delta: -6.0 },
};

/** Table 4: judge score 1–5, mean / SD / % scoring ≥ 4, keyed by pipeline id. */
export const PUBLISHED_QUALITY: Record<string, { mean: number; sd: number; atLeast4: number }> = {
  'b1-full-schema': { mean: 3.21, sd: 1.04, atLeast4: 43.2 },
  'b2-static-pruning': { mean: 3.35, sd: 0.98, atLeast4: 48.0 },
  'b3-simple-retrieval': { mean: 3.89, sd: 0.81, atLeast4: 68.7 },
  'b4-cli-lazy': { mean: 4.02, sd: 0.77, atLeast4: 74.1 },
  'tool-attention': { mean: 4.43, sd: 0.62, atLeast4: 87.6 },
};

/** Judge score at turn 30 of long tasks (§7.2); only these two are published. */
export const PUBLISHED_QUALITY_T30: Record<string, number> = {
  'b1-full-schema': 2.78,
  'tool-attention': 4.31,
};

/** Prompt-cache hit rate over a 30-turn session (§5.6), %. */
export const PUBLISHED_CACHE_HIT: Record<string, number> = {
  'b1-full-schema': 22,
  'tool-attention': 84,
};

/** Tool Attention's failure analysis (§7.5): 29 failed tasks of 500. */
export const PUBLISHED_TA_FAILURES = {
  pipeline: 'tool-attention',
  tasks: 500,
  failed: 29,
  byCause: {
    'ambiguous queries': 14,
    'poorly written descriptions': 7,
    'multi-hop (tool relevant only after an intermediate result)': 5,
    'unrecovered hallucinations': 3,
  },
} as const;

/** Adversarial (§7.6): poisoned descriptions gated out and projected TPA success %, keyed by pipeline id. */
export const PUBLISHED_ADVERSARIAL: Record<string, { gatedOut?: string; tpaSuccess: number }> = {
  'b1-full-schema': { tpaSuccess: 38 },
  'tool-attention': { gatedOut: '46/50', tpaSuccess: 6 },
};
