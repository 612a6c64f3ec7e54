/**
 * Published figures of the ADOL draft and the MCP proposal, printed BESIDE our measurements;
 * never used as our numbers.
 *
 * Sources: IETF Internet-Draft "Agentic Data Optimization Layer (ADOL)" §2.1 (seed
 * 000_c696fe7b7ef4ac49.txt) and the same authors' MCP SEP "Mitigating Token Bloat in MCP:
 * Reducing Schema Redundancy and Optimizing Tool Selection" (Chang, Li, Cao; 2025-09-30; seed
 * 001_961fe8b8c441dd11.txt), via docs/reference/published-figures.md. They analysed the 60
 * tools of the official GitHub MCP server; catalogs/real/extra/github-2025-09.json is
 * that server's 60 tool snapshots of 2025-09-12, and its README notes the figures count
 * identical definitions, not presence. The draft does not define its "repetition rate".
 */
export const PUBLISHED_ADOL_SOURCE =
  'ADOL Internet-Draft §2.1 and MCP SEP "Mitigating Token Bloat in MCP" (Chang, Li, Cao, 2025-09-30), via docs/reference/published-figures.md';

export const PUBLISHED_ADOL_GITHUB = {
  /** The catalog our loader names for the matching dump (extra/github-2025-09.json). */
  catalog: 'github-2025-09',
  tools: 60,
  /** `"owner": {"description": "Repository owner", "type": "string"}` in 36 tool schemas (60%). */
  owner: 36,
  /** `"repo": {"description": "Repository name", "type": "string"}` in 39 (65%). */
  repo: 39,
  /** `"required": ["owner", "repo"]` in 9 (15%). */
  requiredOwnerRepo: 9,
  /** "the repetition rate of some contents within the 60 tool schemas ... reached 9.84%" (undefined method). */
  repetitionRatePct: 9.84,
} as const;
