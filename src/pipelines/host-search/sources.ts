/**
 * Where the hosts publish their tool search (docs/reference/host-search-sources.md has what each
 * says and what could not be confirmed).
 */
export const HOST_SEARCH_SOURCES = {
  anthropicToolSearch: 'Claude Docs, "Tool search tool" (platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool)',
  openAiToolSearch: 'OpenAI API docs, "Tool search" (developers.openai.com/api/docs/guides/tools-tool-search)',
} as const;

/**
 * The hosts' published figures, each with the catalog it was measured on: printed beside our
 * results in the host tool search table's notes, never used as results.
 */
export const HOST_SEARCH_PUBLISHED: readonly { source: string; catalog: string; figure: string }[] = [
  {
    source: 'Anthropic Engineering, "Introducing advanced tool use on the Claude Developer Platform", 2025-11-24',
    catalog: "Anthropic's own 58 tools on 5 servers (GitHub, Slack, Sentry, Grafana, Splunk) and its internal MCP evaluations",
    figure:
      '≈77K tokens in context without tool search, ≈8.7K with it (search tool ≈500, 3–5 loaded tools ≈3K): −85%; accuracy Opus 4 49% → 74%, Opus 4.5 79.5% → 88.1%',
  },
  {
    source: 'OpenAI, GPT-5.4 announcement (confirmed in secondary reports only)',
    catalog: '250 tasks of Scale’s MCP Atlas with 36 MCP servers',
    figure: '−47% total tokens at the same accuracy',
  },
  {
    source: 'Arcade, "We Threw 4,000 Tools at Anthropic\'s New Tool Search", 2025-12-03',
    catalog: '4,027 Arcade tools and 25 tasks',
    figure: 'the right tool among the results for 56% (regex) and 64% (BM25) of the tasks',
  },
];
