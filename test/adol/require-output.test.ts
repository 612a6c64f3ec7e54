import { describe, expect, it } from 'vitest';
import type { McpTool } from '../../src/catalog/types.ts';
import {
  DEFAULT_REQUIRE_OUTPUT,
  isRequestedLeaf,
  outputFieldPaths,
  requestedFields,
  trimResponse,
  withRequireOutput,
} from '../../src/pipelines/adol/require-output.ts';

const outputSchema = {
  type: 'object',
  properties: {
    pull_requests: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          number: { type: 'integer' },
          title: { type: 'string' },
          body: { type: 'string' },
          user: { type: 'object', properties: { login: { type: 'string' }, id: { type: 'integer' } } },
        },
      },
    },
    pageInfo: { type: 'object', properties: { page: { type: 'integer' }, hasNextPage: { type: 'boolean' } } },
    summary: { type: 'string' },
  },
};

const response = {
  pull_requests: [
    { number: 1, title: 'A', body: 'long text', user: { login: 'x', id: 7 }, extra: true },
    { number: 2, title: 'B', body: 'more text', user: { login: 'y', id: 8 } },
  ],
  pageInfo: { page: 1, hasNextPage: false },
  summary: 'two pull requests',
};

describe('ADOL requireOutput', () => {
  it('offers dotted output paths up to depth 2, arrays transparent', () => {
    expect(outputFieldPaths(outputSchema)).toEqual([
      'pull_requests',
      'pull_requests.number',
      'pull_requests.title',
      'pull_requests.body',
      'pull_requests.user',
      'pageInfo',
      'pageInfo.page',
      'pageInfo.hasNextPage',
      'summary',
    ]);
    expect(outputFieldPaths(outputSchema, 1)).toEqual(['pull_requests', 'pageInfo', 'summary']);
    expect(outputFieldPaths(undefined)).toEqual([]);
  });

  it('requests identity, status and pagination leaves by a fixed rule', () => {
    expect(requestedFields(outputFieldPaths(outputSchema))).toEqual([
      'pull_requests.number',
      'pull_requests.title',
      'pageInfo.hasNextPage',
    ]);
    expect(isRequestedLeaf('channel_id')).toBe(true);
    expect(isRequestedLeaf('htmlUrl')).toBe(true);
    expect(isRequestedLeaf('body')).toBe(false);
    // A requested ancestor covers its children.
    expect(requestedFields(['id', 'id.key'])).toEqual(['id']);
  });

  it('trims nested objects and arrays of objects to the requested paths', () => {
    expect(trimResponse(response, ['pull_requests.number', 'pageInfo.hasNextPage'])).toEqual({
      pull_requests: [{ number: 1 }, { number: 2 }],
      pageInfo: { hasNextPage: false },
    });
    expect(trimResponse(response, ['pull_requests.user', 'summary'])).toEqual({
      pull_requests: [{ user: { login: 'x', id: 7 } }, { user: { login: 'y', id: 8 } }],
      summary: 'two pull requests',
    });
    // Whole subtree when the parent is requested, whatever else is asked below it.
    expect(trimResponse(response, ['pageInfo.page', 'pageInfo'])).toEqual({ pageInfo: { page: 1, hasNextPage: false } });
    // Deeper than offered still works on data; unknown paths give empty objects; nothing requested → unchanged.
    expect(trimResponse(response, ['pull_requests.user.login'])).toEqual({
      pull_requests: [{ user: { login: 'x' } }, { user: { login: 'y' } }],
    });
    expect(trimResponse(response, ['nope'])).toEqual({});
    expect(trimResponse(response, [])).toBe(response);
    // A top-level array response is filtered element by element; primitives pass.
    expect(trimResponse([{ id: 1, x: 2 }, 3], ['id'])).toEqual([{ id: 1 }, 3]);
  });

  it("adds the draft's requireOutput property to the input schema only when fields are offered", () => {
    const def: McpTool = { name: 't', inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } };
    const offered = outputFieldPaths(outputSchema, 1);
    const withOffer = withRequireOutput(def, offered);
    expect(withOffer.inputSchema.properties).toEqual({
      q: { type: 'string' },
      requireOutput: {
        description: DEFAULT_REQUIRE_OUTPUT.description,
        type: 'array',
        items: { type: 'string', enum: offered },
        uniqueItems: true,
      },
    });
    expect(withOffer.inputSchema.required).toEqual(['q']);
    expect(withRequireOutput(def, [])).toBe(def);
    expect(def.inputSchema.properties).toEqual({ q: { type: 'string' } });
  });
});
