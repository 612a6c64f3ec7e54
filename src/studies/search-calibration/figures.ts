/**
 * The published, measured figures about tool search, code execution and the papers' methods
 * that the search-calibration study puts beside the harness's own figure on the closest setup
 * it can build (docs/reference/calibration-figures.md gives each source and what was checked).
 * They are printed in the "published" column and the difference is computed; none is ever used
 * as a result. `part`: `calibration` figures are the ones the free parameters are fitted to
 * (search.knowledge by grid search; the selection model's c is solved from its anchor), every
 * other figure is `validation` and is never fitted.
 */

export type FigurePart = 'calibration' | 'validation';

/** What the harness computes for a figure (./harness.ts). */
export type HarnessKey =
  | 'arcadeBm25'
  | 'arcadeRegex'
  | 'lmbFirstSearch'
  | 'lmbThreeSearches'
  | 'selectionAllOpus45'
  | 'selectionSearchOpus45'
  | 'selectionAllOpus4'
  | 'selectionSearchOpus4'
  | 'atsContext'
  | 'openAiTotal'
  | 'programmaticTotal'
  | 'codeExecutionTotal'
  | 'cloudflareDefinitions'
  | 'ragMcpRetrieval'
  | 'ragMcpAll'
  | 'paperB2'
  | 'paperB3'
  | 'paperB4'
  | 'paperTa';

export interface PublishedFigure {
  id: string;
  source: string;
  /** What was measured, in a few words. */
  claim: string;
  /** The published figure, in percent (a share, or a change against the baseline). */
  value: number;
  part: FigurePart;
  /** What the harness computes for it; absent when it cannot be reproduced (`why`). */
  harness?: HarnessKey;
  why?: string;
}

const ANTHROPIC_ADVANCED = 'Anthropic Engineering, "Introducing advanced tool use on the Claude Developer Platform" (2025-11-24)';
const ARCADE = 'Arcade, "We Threw 4,000 Tools at Anthropic\'s New Tool Search" (2025-12-03)';
const LMB = 'LiveMCPBench repository (icip-cas/LiveMCPBench), its logged agent run (catalogs/livemcpbench/README.md)';
const RAG_MCP = 'RAG-MCP (arXiv 2505.03275)';
const TA_PAPER = 'Tool Attention paper (arXiv 2604.21816), Table 3 (tool tokens/turn, measured)';

export const PUBLISHED_FIGURES: readonly PublishedFigure[] = [
  {
    id: 'arcade-bm25',
    source: ARCADE,
    claim: 'right tool among the BM25 tool search results (% of tasks; 4,027 tools, 25 tasks)',
    value: 64,
    part: 'calibration',
    harness: 'arcadeBm25',
  },
  {
    id: 'lmb-first-search',
    source: LMB,
    claim: 'needed tools in the first search (%; 527 tools, 3 tools per search, Claude Sonnet 4 writing the query)',
    value: 32.7,
    part: 'calibration',
    harness: 'lmbFirstSearch',
  },
  {
    id: 'opus45-all',
    source: ANTHROPIC_ADVANCED,
    claim: 'Opus 4.5 tool-selection accuracy with every tool loaded (%)',
    value: 79.5,
    part: 'calibration',
    harness: 'selectionAllOpus45',
  },
  {
    id: 'opus4-all',
    source: ANTHROPIC_ADVANCED,
    claim: 'Opus 4 tool-selection accuracy with every tool loaded (%)',
    value: 49,
    part: 'calibration',
    harness: 'selectionAllOpus4',
  },
  {
    id: 'arcade-regex',
    source: ARCADE,
    claim: 'right tool among the regex tool search results (% of tasks; 4,027 tools, 25 tasks)',
    value: 56,
    part: 'validation',
    harness: 'arcadeRegex',
  },
  {
    id: 'lmb-three-searches',
    source: LMB,
    claim: 'needed tools found over about three searches (%)',
    value: 52.9,
    part: 'validation',
    harness: 'lmbThreeSearches',
  },
  {
    id: 'opus45-search',
    source: ANTHROPIC_ADVANCED,
    claim: 'Opus 4.5 tool-selection accuracy with tool search (%)',
    value: 88.1,
    part: 'validation',
    harness: 'selectionSearchOpus45',
  },
  {
    id: 'opus4-search',
    source: ANTHROPIC_ADVANCED,
    claim: 'Opus 4 tool-selection accuracy with tool search (%)',
    value: 74,
    part: 'validation',
    harness: 'selectionSearchOpus4',
  },
  {
    id: 'ats-context',
    source: ANTHROPIC_ADVANCED,
    claim: 'context tokens with tool search against every definition loaded (Δ %; ≈77K → ≈8.7K, 58 tools)',
    value: -85,
    part: 'validation',
    harness: 'atsContext',
  },
  {
    id: 'openai-mcp-atlas',
    source: 'OpenAI, GPT-5.4 announcement (secondary reports only)',
    claim: 'total tokens with tool_search (Δ %; 250 MCP Atlas tasks, 36 servers, same accuracy)',
    value: -47,
    part: 'validation',
    harness: 'openAiTotal',
  },
  {
    id: 'programmatic-calls',
    source: ANTHROPIC_ADVANCED,
    claim: 'tokens with programmatic tool calling (Δ %; 43,588 → 27,297 on complex research tasks)',
    value: -37,
    part: 'validation',
    harness: 'programmaticTotal',
  },
  {
    id: 'code-execution-mcp',
    source: 'Anthropic Engineering, "Code execution with MCP" (2025-11-04)',
    claim: 'tokens with wrapper files and code execution (Δ %; 150,000 → 2,000, one Drive-to-Salesforce task)',
    value: -98.7,
    part: 'validation',
    harness: 'codeExecutionTotal',
  },
  {
    id: 'cloudflare-code-mode',
    source: 'Cloudflare, "Code Mode: give agents an entire API in 1,000 tokens"',
    claim: 'tool definition tokens of search() + execute() against one tool per endpoint (Δ %; 1.17M → ≈1,000, 2,500 endpoints)',
    value: -99.9,
    part: 'validation',
    harness: 'cloudflareDefinitions',
  },
  {
    id: 'rag-mcp-retrieval',
    source: RAG_MCP,
    claim: 'tool-selection accuracy with retrieval of the tools for the query (%)',
    value: 43.13,
    part: 'validation',
    harness: 'ragMcpRetrieval',
  },
  {
    id: 'rag-mcp-all',
    source: RAG_MCP,
    claim: 'tool-selection accuracy with every tool in the prompt (%)',
    value: 13.62,
    part: 'validation',
    harness: 'ragMcpAll',
  },
  {
    id: 'paper-b2',
    source: TA_PAPER,
    claim: 'B2 static pruning tool tokens/turn against B1 (Δ %; 11,865 vs 47,312)',
    value: -74.9,
    part: 'validation',
    harness: 'paperB2',
  },
  {
    id: 'paper-b3',
    source: TA_PAPER,
    claim: 'B3 simple retrieval tool tokens/turn against B1 (Δ %; 4,082 vs 47,312)',
    value: -91.4,
    part: 'validation',
    harness: 'paperB3',
  },
  {
    id: 'paper-b4',
    source: TA_PAPER,
    claim: 'B4 CLI lazy tool tokens/turn against B1 (Δ %; 480 vs 47,312)',
    value: -99.0,
    part: 'validation',
    harness: 'paperB4',
  },
  {
    id: 'paper-ta',
    source: TA_PAPER,
    claim: 'Tool Attention tool tokens/turn against B1 (Δ %; 2,368 vs 47,312)',
    value: -95.0,
    part: 'validation',
    harness: 'paperTa',
  },
  {
    id: 'tool-use-examples',
    source: ANTHROPIC_ADVANCED,
    claim: 'accuracy on complex parameters with input_examples (%; 72 → 90)',
    value: 90,
    part: 'validation',
    why: 'the harness has no model of how well arguments are filled, only of which tool is picked; examples change token counts alone here',
  },
  {
    id: 'rag-mcp-tokens',
    source: RAG_MCP,
    claim: 'prompt tokens with retrieval against every tool (Δ %; 1,084 vs 2,134)',
    value: -49,
    part: 'validation',
    why: "a 2,134-token prompt cannot hold the paper's whole tool pool, so its baseline prompt is not every definition; the paper does not say what it holds",
  },
];
