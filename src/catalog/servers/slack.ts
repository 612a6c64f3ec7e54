import { publishedServer } from '../../reference/published.ts';
import type { ServerSpec, ToolSpec } from '../spec.ts';
import type { JsonSchema, Precondition } from '../types.ts';

// ---------------------------------------------------------------------------------------------
// Recurring input parameters, reused by reference the way real Slack MCP servers repeat them.
// ---------------------------------------------------------------------------------------------

const CHANNEL_ID: JsonSchema = {
  type: 'string',
  description: "Channel or DM ID, e.g. 'C04SUPPORT1'.",
};

const THREAD_TS: JsonSchema = {
  type: 'string',
  description: "ts of the thread's parent message, e.g. '1712345678.123456'.",
};

const MESSAGE_TS: JsonSchema = {
  type: 'string',
  description: "ts of the target message, e.g. '1712345678.123456'.",
};

const TEXT: JsonSchema = {
  type: 'string',
  description: 'Message text in Slack mrkdwn; mention users as <@U123ABC>.',
};

const CURSOR: JsonSchema = {
  type: 'string',
  description: 'Pagination cursor from response_metadata.next_cursor.',
};

const LIMIT: JsonSchema = {
  type: 'integer',
  minimum: 1,
  maximum: 200,
  default: 100,
  description: 'Page size.',
};

const OLDEST: JsonSchema = {
  type: 'string',
  description: 'Only messages after this Unix ts.',
};

const LATEST: JsonSchema = {
  type: 'string',
  description: 'Only messages before this Unix ts.',
};

const USER_ID: JsonSchema = {
  type: 'string',
  description: "Slack user ID, e.g. 'U04MARIA22'.",
};

const UNFURL_LINKS: JsonSchema = {
  type: 'boolean',
  default: true,
  description: 'Show link previews.',
};

const MRKDWN_THREAD_BROADCAST: JsonSchema = {
  type: 'boolean',
  default: false,
  description: 'Also post the reply to the channel.',
};

const IS_PRIVATE: JsonSchema = {
  type: 'boolean',
  default: false,
  description: 'Make the channel private.',
};

// ---------------------------------------------------------------------------------------------
// Recurring output fragments.
// ---------------------------------------------------------------------------------------------

const OK: JsonSchema = { type: 'boolean' };
const OUT_CHANNEL: JsonSchema = { type: 'string', description: 'Channel ID.' };
const OUT_TS: JsonSchema = { type: 'string', description: 'Message ts.' };

const RESPONSE_METADATA: JsonSchema = {
  type: 'object',
  properties: { next_cursor: { type: 'string', description: 'Empty on the last page.' } },
};

const MESSAGE: JsonSchema = {
  type: 'object',
  properties: {
    ts: { type: 'string' },
    user: { type: 'string' },
    text: { type: 'string' },
    thread_ts: { type: 'string' },
    reply_count: { type: 'integer' },
    reactions: { type: 'array' },
  },
};

const MESSAGES: JsonSchema = { type: 'array', description: 'Messages, newest first.', items: MESSAGE };
const HAS_MORE: JsonSchema = { type: 'boolean' };

const CHANNEL: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    is_private: { type: 'boolean' },
    num_members: { type: 'integer' },
    topic: { type: 'string' },
    purpose: { type: 'string' },
    creator: { type: 'string' },
    created: { type: 'integer' },
  },
};

const USER: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    real_name: { type: 'string' },
    title: { type: 'string' },
    tz: { type: 'string', description: 'IANA time zone.' },
    is_bot: { type: 'boolean' },
    deleted: { type: 'boolean', description: 'Deactivated account.' },
  },
};

// ---------------------------------------------------------------------------------------------
// Recurring required lists, preconditions and annotations.
// ---------------------------------------------------------------------------------------------

const REQ_CHANNEL = ['channel_id'];
const REQ_CHANNEL_TEXT = ['channel_id', 'text'];
const REQ_THREAD = ['channel_id', 'thread_ts'];
const REQ_MESSAGE = ['channel_id', 'timestamp'];

const READ: Precondition = { kind: 'requires_auth', scope: 'slack:read' };
const WRITE: Precondition = { kind: 'requires_auth', scope: 'slack:write' };
const AFTER_LOOKUP: Precondition = { kind: 'after_tool_output', prefixes: ['search_', 'get_', 'list_'] };

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
const ADDITIVE_WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
const IDEMPOTENT_WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true };

// ---------------------------------------------------------------------------------------------
// Tools.
// ---------------------------------------------------------------------------------------------

const tools: ToolSpec[] = [
  {
    name: 'post_message',
    title: 'Post Message',
    description: 'Send a new top-level message to a channel or DM. Returns the new message ts, needed to reply, react or pin later.',
    params: {
      channel_id: CHANNEL_ID,
      text: TEXT,
      blocks: {
        type: 'array',
        items: { type: 'object' },
        description: 'Block Kit blocks; text then becomes the fallback.',
      },
      unfurl_links: UNFURL_LINKS,
    },
    required: REQ_CHANNEL_TEXT,
    output: {
      ok: OK,
      channel: OUT_CHANNEL,
      ts: OUT_TS,
      message: MESSAGE,
    },
    annotations: ADDITIVE_WRITE,
    summary: 'Post a message to a Slack channel or direct message, with optional formatting, mentions and link previews',
    tags: ['slack', 'messaging', 'write'],
    preconditions: [WRITE],
    sampleResponse: {
      ok: true,
      channel: 'C04SUPPORT1',
      ts: '1716220842.339109',
      message: {
        ts: '1716220842.339109',
        user: 'U05BOTMCP01',
        text: 'Heads up: the 14:00 deploy of billing-service v2.4.0 finished. Error rates are back to baseline; ping <@U04MARIA22> if you still see failed invoices.',
        reactions: [],
      },
    },
    notes: [
      'The bot must be a member of the channel, otherwise Slack returns not_in_channel; public channels can be joined first.',
      'Text longer than 40,000 characters is truncated by Slack, and a single message may carry at most 50 blocks.',
      'Posting to an archived channel fails with is_archived, and to a channel with posting restricted to admins fails with restricted_action.',
      'Mentions like @here and @channel only notify when written as <!here> or <!channel>.',
    ],
    intents: [
      'tell {channel} the deploy is done',
      'drop a note in {channel} that {topic} is fixed',
      'can you let {channel} know standup is moved to 10:30',
      'send {slack_user} a quick DM saying I will be late',
      'announce the {version} release in {channel}',
      'shout out in the channel that the build is green again',
    ],
    ambiguousIntents: ['let the team know', 'give everyone a heads-up about {topic}'],
  },
  {
    name: 'reply_to_thread',
    title: 'Reply to Thread',
    description:
      "Post a reply in an existing thread, identified by the channel and the parent message's thread_ts. Can also broadcast the reply to the channel.",
    params: {
      channel_id: CHANNEL_ID,
      thread_ts: THREAD_TS,
      text: TEXT,
      reply_broadcast: MRKDWN_THREAD_BROADCAST,
    },
    required: ['channel_id', 'thread_ts', 'text'],
    output: {
      ok: OK,
      channel: OUT_CHANNEL,
      ts: OUT_TS,
      message: MESSAGE,
    },
    annotations: ADDITIVE_WRITE,
    summary: 'Reply in an existing Slack thread under a specific message, optionally also sending the reply to the channel',
    tags: ['slack', 'messaging', 'threads', 'write'],
    preconditions: [WRITE, AFTER_LOOKUP],
    sampleResponse: {
      ok: true,
      channel: 'C04INCIDENT',
      ts: '1716221377.004200',
      message: {
        ts: '1716221377.004200',
        user: 'U05BOTMCP01',
        text: 'Root cause confirmed: the rate limiter config in hotfix/rate-limit shipped with a 10x lower burst. Rollback is done, tracking the follow-up in OPS-87.',
        thread_ts: '1716219012.118300',
        reactions: [],
      },
    },
    notes: [
      'Passing the ts of a reply instead of the parent still works: Slack attaches the message to the same thread.',
      'An unknown or deleted parent fails with thread_not_found, and a ts without the decimal part fails with invalid_ts.',
      'With reply_broadcast the reply also appears in the channel and notifies like a normal message.',
    ],
    intents: [
      'answer {slack_user} in that thread and say we are on it',
      'respond under that message that the fix is in {branch}',
      'add a follow-up to the thread about {topic}: rollback finished',
      'chime in on that conversation with the link to {jira_key}',
      'write back on the thread that I can take it',
    ],
  },
  {
    name: 'list_channels',
    title: 'List Channels',
    description: 'List conversations visible to the token, with member counts, topic and purpose. Filter by type; paginated with a cursor.',
    params: {
      types: {
        type: 'array',
        items: { type: 'string', enum: ['public_channel', 'private_channel', 'mpim', 'im'] },
        default: ['public_channel'],
      },
      exclude_archived: { type: 'boolean', default: true },
      limit: LIMIT,
      cursor: CURSOR,
    },
    required: [],
    output: {
      channels: { type: 'array', items: CHANNEL },
      response_metadata: RESPONSE_METADATA,
    },
    annotations: READ_ONLY,
    summary: 'List the channels in the Slack workspace, public or private, with member counts, topics and purposes',
    tags: ['slack', 'channels', 'read'],
    preconditions: [READ],
    sampleResponse: {
      channels: [
        {
          id: 'C04SUPPORT1',
          name: 'support',
          is_private: false,
          num_members: 84,
          topic: 'Tier-1 queue | on-call: @aisha',
          purpose: 'Customer escalations and triage',
          creator: 'U04AISHA11',
          created: 1618317600,
        },
        {
          id: 'C04ENGBACK2',
          name: 'eng-backend',
          is_private: false,
          num_members: 37,
          topic: 'Sprint 42 board: WEB-2291',
          purpose: 'Backend services, APIs, data',
          creator: 'U04DEVON55',
          created: 1620043200,
        },
        {
          id: 'C04INCIDENT',
          name: 'incidents',
          is_private: false,
          num_members: 152,
          topic: 'SEV2 open: checkout outage',
          purpose: 'Live incident coordination',
          creator: 'U04TOMB033',
          created: 1609459200,
        },
        {
          id: 'G05SALESEM',
          name: 'sales-emea',
          is_private: true,
          num_members: 19,
          topic: '',
          purpose: 'EMEA pipeline and deals',
          creator: 'U04MARIA22',
          created: 1672531200,
        },
      ],
      response_metadata: { next_cursor: 'dGVhbTpDMDRSQU5ET00z' },
    },
    notes: [
      'Private channels and DMs only appear when the token has the matching groups:read or im:read scope and the user is a member.',
      'Slack may return fewer items than limit even when more pages exist, so keep paging while next_cursor is non-empty.',
      'This is a Tier 2 method (about 20 requests per minute); large workspaces should be paged, not polled.',
    ],
    intents: [
      'gimme the rundown of every room we have',
      'is there a channel for {topic}?',
      'show me every private channel I am in',
      'which rooms are the busiest in the workspace',
      'find the channel where sales folks hang out',
    ],
    ambiguousIntents: ['where should I ask about this?'],
  },
  {
    name: 'get_channel_history',
    title: 'Get Channel History',
    description:
      'Fetch recent messages from a channel or DM, newest first. Thread replies are not included, only parents with reply_count.',
    params: {
      channel_id: CHANNEL_ID,
      limit: LIMIT,
      oldest: OLDEST,
      latest: LATEST,
      cursor: CURSOR,
    },
    required: REQ_CHANNEL,
    output: {
      messages: MESSAGES,
      has_more: HAS_MORE,
      response_metadata: RESPONSE_METADATA,
    },
    annotations: READ_ONLY,
    summary: 'Read the recent messages posted in a Slack channel or DM, optionally within a time window',
    tags: ['slack', 'messaging', 'read'],
    preconditions: [READ],
    sampleResponse: {
      messages: [
        {
          ts: '1716219012.118300',
          user: 'U04AISHA11',
          text: 'Checkout is throwing 502s for ~8% of requests since 09:40, looks tied to the rate-limit hotfix',
          reply_count: 6,
          reactions: [{ name: 'eyes', count: 4 }],
        },
        {
          ts: '1716218450.771900',
          user: 'U04TOMB033',
          text: 'Status page updated: https://status.example.com/incidents',
          reply_count: 0,
          reactions: [{ name: 'white_check_mark', count: 2 }],
        },
        {
          ts: '1716216003.002100',
          user: 'U04KENJI44',
          text: 'Morning! Android crash rate on 2.4.0 is back under 0.3% after the patch',
          reply_count: 2,
          reactions: [{ name: 'tada', count: 5 }],
        },
      ],
      has_more: true,
      response_metadata: { next_cursor: 'bmV4dF90czoxNzE2MjE2MDAz' },
    },
    notes: [
      'On free workspaces only the last 90 days of history are returned, whatever oldest says.',
      'Reading a channel the bot is not in fails with not_in_channel for private channels and channel_not_found for unknown IDs.',
      'Use get_thread_replies with a parent ts to read the replies hidden behind reply_count.',
      'Commercially distributed apps outside the Marketplace are limited to 15 messages per call and 1 call per minute here.',
    ],
    intents: [
      "what's been going on in {channel} {date}?",
      'catch me up on {channel}',
      'pull the last {number} posts from {channel}',
      'what did people say in {channel} {date_range}',
      'scroll back through the incidents room and tell me what I missed',
    ],
    ambiguousIntents: ['what did I miss?'],
  },
  {
    name: 'get_thread_replies',
    title: 'Get Thread Replies',
    description: 'Return every message in a thread: the parent first, then replies in chronological order.',
    params: {
      channel_id: CHANNEL_ID,
      thread_ts: THREAD_TS,
      limit: LIMIT,
      cursor: CURSOR,
    },
    required: REQ_THREAD,
    output: {
      messages: { type: 'array', description: 'Parent first, then replies.', items: MESSAGE },
      has_more: HAS_MORE,
      response_metadata: RESPONSE_METADATA,
    },
    annotations: READ_ONLY,
    summary: 'Read all the replies in a Slack thread, starting from the message that opened the discussion',
    tags: ['slack', 'threads', 'read'],
    preconditions: [READ, AFTER_LOOKUP],
    sampleResponse: {
      messages: [
        {
          ts: '1716219012.118300',
          user: 'U04AISHA11',
          text: 'Checkout is throwing 502s for ~8% of requests since 09:40, looks tied to the rate-limit hotfix',
          thread_ts: '1716219012.118300',
          reply_count: 3,
        },
        {
          ts: '1716219140.220100',
          user: 'U04DEVON55',
          text: 'Confirmed, burst limit is 20 instead of 200 in the deployed config',
          thread_ts: '1716219012.118300',
        },
        {
          ts: '1716219388.903400',
          user: 'U04TOMB033',
          text: 'Rolling back hotfix/rate-limit now, ETA 5 min',
          thread_ts: '1716219012.118300',
        },
        {
          ts: '1716220011.440700',
          user: 'U04AISHA11',
          text: 'Error rate back to 0.1%. Filing OPS-87 for the postmortem.',
          thread_ts: '1716219012.118300',
          reactions: [{ name: 'raised_hands', count: 3 }],
        },
      ],
      has_more: false,
      response_metadata: { next_cursor: '' },
    },
    notes: [
      'If thread_ts points at a message without replies, only that single message is returned.',
      'A ts from a different channel than channel_id fails with thread_not_found.',
      'Threads with more than limit replies must be paged with the returned cursor.',
    ],
    intents: [
      'open up that thread and show me the whole back-and-forth',
      "what did everyone answer under {slack_user}'s question?",
      'read the discussion under that post about {topic}',
      'any responses on that message yet?',
    ],
  },
  {
    name: 'search_messages',
    title: 'Search Messages',
    description:
      'Search messages workspace-wide with Slack search syntax (in:#channel, from:@user, after:, has:link). Returns matches with permalinks.',
    params: {
      query: { type: 'string', description: "Query with modifiers, e.g. 'checkout in:#incidents'." },
      sort: { type: 'string', enum: ['score', 'timestamp'], default: 'score', description: 'Relevance or date.' },
      sort_dir: { type: 'string', enum: ['desc', 'asc'], default: 'desc' },
      count: { type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Results per page.' },
      page: { type: 'integer', minimum: 1, maximum: 100, default: 1 },
    },
    required: ['query'],
    output: {
      query: { type: 'string' },
      matches: {
        type: 'array',
        description: 'Matching messages.',
        items: {
          type: 'object',
          properties: {
            channel: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } },
            user: { type: 'string' },
            ts: { type: 'string' },
            text: { type: 'string' },
            permalink: { type: 'string', format: 'uri' },
          },
        },
      },
      total: { type: 'integer' },
    },
    annotations: READ_ONLY,
    summary: 'Search Slack messages across channels by keywords, author, channel or date, and get links to the matches',
    tags: ['slack', 'search', 'read'],
    preconditions: [READ],
    sampleResponse: {
      query: 'pricing change in:#sales-emea after:2024-04-30',
      matches: [
        {
          channel: { id: 'G05SALESEM', name: 'sales-emea' },
          user: 'U04MARIA22',
          ts: '1715004411.551200',
          text: 'Two renewals pushed back after the pricing change, both asking about annual discounts',
          permalink: 'https://acme.slack.com/archives/G05SALESEM/p1715004411551200',
        },
        {
          channel: { id: 'G05SALESEM', name: 'sales-emea' },
          user: 'U04KENJI44',
          ts: '1715261803.118000',
          text: 'Deck for the pricing change FAQ is in the shared drive, see https://example.com/pricing',
          permalink: 'https://acme.slack.com/archives/G05SALESEM/p1715261803118000',
        },
        {
          channel: { id: 'G05SALESEM', name: 'sales-emea' },
          user: 'U04TOMB033',
          ts: '1715789002.440300',
          text: 'Churn risk list updated, 3 accounts flagged the pricing change as main reason',
          permalink: 'https://acme.slack.com/archives/G05SALESEM/p1715789002440300',
        },
      ],
      total: 3,
    },
    notes: [
      'search.messages only works with a user token (xoxp); bot tokens get not_allowed_token_type.',
      'Only channels the authorising user can read are searched, and recently posted messages may take a minute to be indexed.',
      'Quote phrases for exact matches and use -word to exclude terms.',
      'This is a Tier 2 method, roughly 20 searches per minute per workspace.',
    ],
    intents: [
      'what were folks saying in {channel} about {topic} {date_range}?',
      'find where {slack_user} mentioned {topic}',
      'did anyone post the link to {url}?',
      'dig up any chatter on {jira_key}',
      'look for discussions about {topic}',
      'has anybody brought up the outage since Monday',
    ],
    ambiguousIntents: ['did anyone talk about this already?'],
  },
  {
    name: 'add_reaction',
    title: 'Add Reaction',
    description: 'Add an emoji reaction to a message, given its channel and timestamp.',
    params: {
      channel_id: CHANNEL_ID,
      timestamp: MESSAGE_TS,
      name: {
        type: 'string',
        description: "Emoji name without colons, e.g. 'eyes' or 'rocket'.",
      },
    },
    required: ['channel_id', 'timestamp', 'name'],
    output: {
      ok: OK,
      channel: OUT_CHANNEL,
      ts: OUT_TS,
      reaction: { type: 'string' },
      message: MESSAGE,
    },
    annotations: IDEMPOTENT_WRITE,
    summary: 'React to a Slack message with an emoji, such as a thumbs up, eyes or check mark',
    tags: ['slack', 'reactions', 'write'],
    preconditions: [WRITE, AFTER_LOOKUP],
    sampleResponse: {
      ok: true,
      channel: 'C04INCIDENT',
      ts: '1716220011.440700',
      reaction: 'white_check_mark',
      message: {
        ts: '1716220011.440700',
        user: 'U04AISHA11',
        text: 'Error rate back to 0.1%. Filing OPS-87 for the postmortem.',
        thread_ts: '1716219012.118300',
        reactions: [
          { name: 'raised_hands', count: 3 },
          { name: 'white_check_mark', count: 1 },
        ],
      },
    },
    notes: [
      'Adding the same emoji twice fails with already_reacted; treat that as success.',
      'An unknown emoji name fails with invalid_name, and a message may hold at most 23 distinct reactions (too_many_emoji).',
      'Requires the reactions:write scope on the token.',
    ],
    intents: [
      '+1 that post for me',
      "put an :eyes: on {slack_user}'s post so they know I saw it",
      'tick off the latest post in {channel} with a :white_check_mark:',
      'give that announcement a :tada:',
      'ack the alert so folks see someone is on it',
    ],
  },
  {
    name: 'list_users',
    title: 'List Users',
    description:
      'List members of the workspace, including bots and deactivated accounts, with their names, titles and time zones. Paginated with a cursor.',
    params: {
      limit: LIMIT,
      cursor: CURSOR,
      include_locale: { type: 'boolean', default: false },
    },
    required: [],
    output: {
      members: { type: 'array', items: USER },
      response_metadata: RESPONSE_METADATA,
    },
    annotations: READ_ONLY,
    summary: 'List the people in the Slack workspace with their names, job titles and time zones',
    tags: ['slack', 'users', 'read'],
    preconditions: [READ],
    sampleResponse: {
      members: [
        {
          id: 'U04MARIA22',
          name: 'maria',
          real_name: 'Maria Lopez',
          title: 'Account Executive, EMEA',
          tz: 'Europe/Madrid',
          is_bot: false,
          deleted: false,
        },
        { id: 'U04TOMB033', name: 'tom.b', real_name: 'Tom Baker', title: 'SRE', tz: 'Europe/London', is_bot: false, deleted: false },
        {
          id: 'U04AISHA11',
          name: 'aisha',
          real_name: 'Aisha Khan',
          title: 'Support Lead',
          tz: 'America/New_York',
          is_bot: false,
          deleted: false,
        },
        {
          id: 'U04KENJI44',
          name: 'kenji',
          real_name: 'Kenji Sato',
          title: 'Android Engineer',
          tz: 'Asia/Tokyo',
          is_bot: false,
          deleted: false,
        },
        {
          id: 'U05BOTMCP01',
          name: 'tooltax-bot',
          real_name: 'Tooltax Bot',
          title: '',
          tz: 'America/Los_Angeles',
          is_bot: true,
          deleted: false,
        },
      ],
      response_metadata: { next_cursor: 'dXNlcjpVMDRERVZPTjU1' },
    },
    notes: [
      'Email addresses are only included when the token has the users:read.email scope.',
      'Guests and Slack Connect users from other organisations appear with limited profile fields.',
      'This is a Tier 2 method; cache the result instead of calling it per lookup.',
    ],
    intents: [
      'who all has an account here?',
      'give me a roster of everyone here',
      'find the user id for {slack_user}',
      'which bots are installed for us',
      'who works in Tokyo time?',
    ],
  },
  {
    name: 'get_user_profile',
    title: 'Get User Profile',
    description: "Get one user's full profile: display and real name, title, email, phone, status text and emoji, and time zone.",
    params: {
      user_id: USER_ID,
      include_labels: { type: 'boolean', default: false, description: 'Label custom fields.' },
    },
    required: ['user_id'],
    output: {
      profile: {
        type: 'object',
        properties: {
          real_name: { type: 'string' },
          display_name: { type: 'string' },
          title: { type: 'string', description: 'Job title.' },
          email: { type: 'string', format: 'email' },
          phone: { type: 'string' },
          status_text: { type: 'string' },
          status_emoji: { type: 'string' },
          tz: { type: 'string' },
        },
      },
    },
    annotations: READ_ONLY,
    summary: "Look up a Slack user's profile details such as job title, email, status and time zone",
    tags: ['slack', 'users', 'read'],
    preconditions: [READ],
    sampleResponse: {
      profile: {
        real_name: 'Devon Price',
        display_name: 'devon',
        title: 'Staff Engineer, Payments',
        email: 'devon.price@acme.example',
        phone: '+1 415 555 0142',
        status_text: 'On call until Friday',
        status_emoji: ':pager:',
        tz: 'America/Los_Angeles',
      },
    },
    notes: [
      'Unknown IDs fail with user_not_found; pass an ID, not a display name or @handle.',
      'Custom profile fields are only returned to members of the same organisation.',
    ],
    intents: [
      "I need {slack_user}'s address so I can send them mail",
      'is {slack_user} out of office today?',
      'what time is it where {slack_user} lives',
      'what does {slack_user} actually do here, like their role?',
      'how do I reach {slack_user} by phone',
    ],
  },
  {
    name: 'create_channel',
    title: 'Create Channel',
    description: 'Create a new public or private channel; the creator joins it automatically. Names are lowercase, max 80 characters.',
    params: {
      name: {
        type: 'string',
        pattern: '^[a-z0-9_-]{1,80}$',
        description: "Channel name without the #, e.g. 'incident-2024-05-20'.",
      },
      is_private: IS_PRIVATE,
    },
    required: ['name'],
    output: {
      ok: OK,
      channel: CHANNEL,
    },
    annotations: ADDITIVE_WRITE,
    summary: 'Create a new Slack channel, public or private, for a team, project or incident',
    tags: ['slack', 'channels', 'admin', 'write'],
    preconditions: [WRITE],
    sampleResponse: {
      ok: true,
      channel: {
        id: 'C07CHKOUT01',
        name: 'inc-checkout-outage',
        is_private: false,
        num_members: 1,
        topic: '',
        purpose: '',
        creator: 'U05BOTMCP01',
        created: 1716221800,
      },
    },
    notes: [
      'A name already in use, even by an archived channel, fails with name_taken.',
      'Workspaces may restrict channel creation to admins, which fails with restricted_action.',
      'Private channels cannot be made public later through the API.',
    ],
    intents: [
      'spin up a room for {topic}',
      'we need a new private space for the {jira_project} launch',
      'make an incident channel for the outage',
      'start a channel called release-{version}',
    ],
  },
  {
    name: 'invite_to_channel',
    title: 'Invite to Channel',
    description: 'Add one or more users to a channel the caller belongs to. Pass up to 1000 user IDs.',
    params: {
      channel_id: CHANNEL_ID,
      users: {
        type: 'array',
        items: USER_ID,
        minItems: 1,
        maxItems: 1000,
        description: 'User IDs to invite.',
      },
      force: {
        type: 'boolean',
        default: false,
        description: 'Invite valid users even if some IDs fail.',
      },
    },
    required: ['channel_id', 'users'],
    output: {
      ok: OK,
      channel: CHANNEL,
      errors: {
        type: 'array',
        description: 'Per-user failures (force).',
        items: { type: 'object', properties: { user: { type: 'string' }, error: { type: 'string' } } },
      },
    },
    annotations: IDEMPOTENT_WRITE,
    summary: 'Invite people into a Slack channel so they can see and join its conversation',
    tags: ['slack', 'channels', 'users', 'write'],
    preconditions: [WRITE],
    sampleResponse: {
      ok: true,
      channel: {
        id: 'C07CHKOUT01',
        name: 'inc-checkout-outage',
        is_private: false,
        num_members: 4,
        topic: 'SEV2: checkout 502s',
        purpose: 'Incident room',
        creator: 'U05BOTMCP01',
        created: 1716221800,
      },
      errors: [{ user: 'U01GONE0000', error: 'user_is_deactivated' }],
    },
    notes: [
      'The caller must already be in the channel, otherwise Slack returns not_in_channel.',
      'Guests restricted to other channels fail with user_is_restricted, and inviting yourself fails with cant_invite_self.',
      'Inviting a user who is already a member fails with already_in_channel unless force is set.',
    ],
    intents: [
      'pull {slack_user} into {channel}',
      'add {slack_user} plus the on-call crew to the incident room',
      'get the on-call folks into {channel}',
      'can you loop {slack_user} in on {channel}?',
    ],
    ambiguousIntents: ['loop in the right people'],
  },
  {
    name: 'set_channel_topic',
    title: 'Set Channel Topic',
    description: "Replace a channel's topic, the line shown in the channel header. An empty string clears it.",
    params: {
      channel_id: CHANNEL_ID,
      topic: { type: 'string', maxLength: 250, description: 'New topic text, up to 250 characters; no formatting.' },
    },
    required: ['channel_id', 'topic'],
    output: {
      ok: OK,
      channel: CHANNEL,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    summary: 'Change the topic shown at the top of a Slack channel, such as the current on-call or status',
    tags: ['slack', 'channels', 'write'],
    preconditions: [WRITE],
    sampleResponse: {
      ok: true,
      channel: {
        id: 'C04INCIDENT',
        name: 'incidents',
        is_private: false,
        num_members: 152,
        topic: 'Resolved: checkout outage (OPS-87) | next review Thursday',
        purpose: 'Live incident coordination',
        creator: 'U04TOMB033',
        created: 1609459200,
      },
    },
    notes: [
      'Topics longer than 250 characters fail with too_long.',
      'The previous topic is overwritten and cannot be restored through the API.',
      'Archived channels fail with is_archived; the caller must be a channel member.',
    ],
    intents: [
      'update the header in {channel} to say on-call is {slack_user}',
      "change {channel}'s description line to point at {jira_key}",
      'make the banner in {channel} say the incident is resolved',
      'clear the header text in the incidents room',
    ],
  },
  {
    name: 'upload_file',
    title: 'Upload File',
    description:
      'Upload a file and share it into a channel or thread, with an optional title and comment. Give the content as text or a local path.',
    params: {
      channel_id: CHANNEL_ID,
      filename: { type: 'string', description: "File name with extension, e.g. 'q3-summary.csv'." },
      content: { type: 'string', description: 'Text content; or use file_path.' },
      file_path: { type: 'string', description: 'Local file to upload.' },
      title: { type: 'string' },
      initial_comment: { type: 'string', description: 'Message posted along with the file.' },
      thread_ts: THREAD_TS,
    },
    required: ['channel_id', 'filename'],
    output: {
      ok: OK,
      file: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          name: { type: 'string' },
          title: { type: 'string' },
          size: { type: 'integer', description: 'Bytes.' },
          mimetype: { type: 'string' },
          permalink: { type: 'string', format: 'uri' },
        },
      },
    },
    annotations: ADDITIVE_WRITE,
    summary: 'Share a file, report or snippet into a Slack channel or thread with an optional comment',
    tags: ['slack', 'files', 'write'],
    preconditions: [WRITE],
    sampleResponse: {
      ok: true,
      file: {
        id: 'F07Q3SUMM01',
        name: 'q3-summary.csv',
        title: 'Q3 revenue summary by region (final)',
        size: 48213,
        mimetype: 'text/csv',
        permalink: 'https://acme.slack.com/files/U05BOTMCP01/F07Q3SUMM01/q3-summary.csv',
      },
    },
    notes: [
      'Files are limited to 1 GB, and workspaces on free plans keep only 90 days of files.',
      'Uploads use the files.getUploadURLExternal / completeUploadExternal flow; the legacy files.upload method is retired.',
      'Requires the files:write scope; sharing to a channel the bot is not in fails with not_in_channel.',
    ],
    intents: [
      'attach {path} to {channel}',
      'shoot {slack_user} the doc at {path}',
      'drop that CSV in the thread',
      'send the logs over to {channel} so the team can look',
    ],
  },
  {
    name: 'schedule_message',
    title: 'Schedule Message',
    description: 'Queue a message to be posted to a channel at a future Unix time. Returns a scheduled_message_id for cancelling it.',
    params: {
      channel_id: CHANNEL_ID,
      text: TEXT,
      post_at: {
        type: 'integer',
        description: 'Unix seconds when to post; within 120 days.',
      },
      thread_ts: THREAD_TS,
    },
    required: ['channel_id', 'text', 'post_at'],
    output: {
      ok: OK,
      channel: OUT_CHANNEL,
      scheduled_message_id: { type: 'string' },
      post_at: { type: 'integer' },
      message: MESSAGE,
    },
    annotations: ADDITIVE_WRITE,
    summary: 'Schedule a Slack message to be sent to a channel later, at a specific date and time',
    tags: ['slack', 'messaging', 'scheduling', 'write'],
    preconditions: [WRITE],
    sampleResponse: {
      ok: true,
      channel: 'C04ENGBACK2',
      scheduled_message_id: 'Q07RETRO0042',
      post_at: 1716543000,
      message: {
        text: 'Reminder: Sprint 42 retro starts in 15 minutes. Add what went well and what hurt (looking at you, checkout outage) to the board before we start.',
        user: 'U05BOTMCP01',
      },
    },
    notes: [
      'A post_at in the past fails with time_in_past, and more than 120 days ahead fails with time_too_far.',
      'At most 30 messages can be scheduled per channel in any 5-minute window.',
      'Scheduled messages do not appear in channel history until they are posted.',
    ],
    intents: [
      'remind {channel} about the retro tomorrow at 9',
      'send this to {channel} on Monday morning instead of now',
      "queue up a note for {slack_user} first thing when they're online",
      'post the release notes in {channel} at 5pm',
    ],
  },
  {
    name: 'pin_message',
    title: 'Pin Message',
    description: "Pin a message to a channel so it appears in the channel's pinned items. Identify the message by channel and timestamp.",
    params: {
      channel_id: CHANNEL_ID,
      timestamp: MESSAGE_TS,
    },
    required: REQ_MESSAGE,
    output: {
      ok: OK,
      channel: OUT_CHANNEL,
      ts: OUT_TS,
      message: MESSAGE,
    },
    annotations: IDEMPOTENT_WRITE,
    summary: 'Pin an important Slack message to the top of its channel so people can find it easily',
    tags: ['slack', 'messaging', 'write'],
    preconditions: [WRITE, AFTER_LOOKUP],
    sampleResponse: {
      ok: true,
      channel: 'C04SUPPORT1',
      ts: '1716220842.339109',
      message: {
        ts: '1716220842.339109',
        user: 'U05BOTMCP01',
        text: 'Heads up: the 14:00 deploy of billing-service v2.4.0 finished. Error rates are back to baseline; ping <@U04MARIA22> if you still see failed invoices.',
        reply_count: 4,
        reactions: [
          { name: 'pushpin', count: 1 },
          { name: 'white_check_mark', count: 6 },
        ],
      },
    },
    notes: [
      'Pinning an already pinned message fails with already_pinned.',
      'A channel can hold at most 100 pinned items; further pins fail with too_many_pins.',
      'Requires the pins:write scope and membership in the channel.',
    ],
    intents: [
      'stick that announcement up in {channel} so it stays visible',
      'keep the runbook link handy in {channel}',
      'make sure nobody loses track of that post, bookmark it in the channel',
      'save the postmortem message up top for everyone',
    ],
  },
];

export const slackServer: ServerSpec = {
  server: 'slack',
  displayName: 'Slack',
  targetToolCount: publishedServer('slack').tools,
  targetTokensPerTool: publishedServer('slack').meanTokens,
  notes: [
    'All calls use the Slack Web API with the workspace token configured for this server.',
    'Channel and user arguments must be IDs; names like #general are resolved with one extra lookup.',
    'List methods use cursor pagination: repeat the call with response_metadata.next_cursor until it is empty.',
    'Rate limits are per method and per workspace; on HTTP 429 the server waits for Retry-After before retrying once.',
    'Message timestamps (ts) are strings with six decimal places and also serve as message IDs; never round them.',
    'Errors are returned as { ok: false, error } with Slack error codes such as channel_not_found or missing_scope.',
    'missing_scope means the installed app lacks a permission; the response lists the needed scope in needed.',
    'Actions are performed as the bot user unless the server was configured with a user token.',
    'Messages sent by this server appear in Slack immediately and notify mentioned people; they are not drafts.',
    'Text uses Slack mrkdwn, not Markdown: links are <url|label> and bold is *single asterisks*.',
    'On Enterprise Grid, only conversations in the workspace the token was installed to are visible.',
    'Slack Connect channels are shared with other organisations; content posted there is visible to external members.',
    'Times returned by Slack are in UTC; convert them with the user tz field before showing them.',
    'Deleted messages and users return not_found style errors instead of empty results.',
  ],
  tools,
};
