import { describe, expect, it } from 'vitest';
import type { CatalogTool } from '../../src/catalog/types.ts';
import type { Encoder } from '../../src/embed/types.ts';
import { matchTags, queryStems, selectByTags, SemanticToolIndex, stem } from '../../src/pipelines/adol/retrieval.ts';
import { hashEncoder } from './helpers.ts';

function tool(id: string, tags: string[], description = `Tool ${id}.`): CatalogTool {
  const [server, name] = id.split('/') as [string, string];
  return {
    id,
    server,
    name,
    definition: { name, description, inputSchema: { type: 'object', properties: {} } },
    summary: description,
    summarySource: 'authored',
    tags,
    preconditions: [],
  };
}

const tools = [
  tool('github/list_pull_requests', ['pull-requests', 'read']),
  tool('github/create_issue', ['issues', 'write']),
  tool('github/list_issues', ['issues', 'read']),
  tool('slack/post_message', ['slack', 'messaging', 'write']),
  tool('web/fetch_page', ['web', 'fetch']),
];

describe('ADOL tag retrieval', () => {
  it('stems query words and tag parts', () => {
    expect(stem('issues')).toBe('issue');
    expect(stem('queries')).toBe('query');
    expect(stem('branches')).toBe('branch');
    expect(stem('status')).toBe('status');
    expect([...queryStems("What's open in acme/web-app? PRs, pull requests!")]).toEqual(
      expect.arrayContaining(['pull', 'request', 'web', 'app', 'acme']),
    );
  });

  it('matches a tag when every part of it is among the query words', () => {
    expect(matchTags('any open pull requests on web-app?', ['pull-requests', 'issues', 'web', 'read'])).toEqual(['pull-requests', 'web']);
    expect(matchTags('pull the latest changes', ['pull-requests'])).toEqual([]);
  });

  it('returns every tool carrying a requested tag (OR), in catalog order', () => {
    const sel = selectByTags('file an issue about the outage', tools);
    expect(sel).toEqual({ tags: ['issues'], toolIds: ['github/create_issue', 'github/list_issues'], fallback: false });
    expect(selectByTags('read the issues', tools).toolIds).toEqual([
      'github/list_pull_requests',
      'github/create_issue',
      'github/list_issues',
    ]);
  });

  it('falls back to the full list (or nothing) when no tag matches', () => {
    expect(selectByTags('hello there', tools)).toEqual({ tags: [], toolIds: tools.map((t) => t.id), fallback: true });
    expect(selectByTags('hello there', tools, { fallback: 'none' }).toolIds).toEqual([]);
  });
});

describe('ADOL semantic retrieval', () => {
  it('ranks tools by the weighted component embedding and returns the top k', async () => {
    const encoder: Encoder = hashEncoder();
    const withDescriptions = [
      tool('github/list_issues', ['issues'], 'List the issues of a repository.'),
      tool('slack/post_message', ['slack'], 'Post a message to a Slack channel.'),
      tool('web/fetch_page', ['web'], 'Fetch a web page and return its text.'),
    ];
    const index = await SemanticToolIndex.build(withDescriptions, encoder, { k: 2, weights: { name: 1, description: 2, parameters: 1 } });
    const [q] = await encoder.embed(['post a message to the team channel']);
    const hits = index.search(q!);
    expect(hits).toHaveLength(2);
    expect(hits[0]).toBe('slack/post_message');
    expect(index.search(q!, 1)).toEqual(['slack/post_message']);
  });
});
