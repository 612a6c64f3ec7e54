/**
 * Where the hosts publish their tool search (docs/reference/host-search-sources.md has what each
 * says and what could not be confirmed).
 */
export const HOST_SEARCH_SOURCES = {
  anthropicToolSearch: 'Claude Docs, "Tool search tool" (platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool)',
  openAiToolSearch: 'OpenAI API docs, "Tool search" (developers.openai.com/api/docs/guides/tools-tool-search)',
} as const;
