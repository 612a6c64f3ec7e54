import { publishedServer } from '../../reference/published.ts';
import type { ServerSpec, ToolSpec } from '../spec.ts';
import type { JsonSchema, Precondition } from '../types.ts';

/**
 * Jira server of the synthetic catalog, modelled on mcp-atlassian's Jira toolset: issues,
 * JQL search, workflow transitions, comments, worklogs, links, watchers, agile boards and
 * sprints, versions and projects. Recurring parameters, output fragments and required lists
 * are module constants reused by reference, the way a real server's generated schemas repeat.
 */

// ---------------------------------------------------------------- preconditions, annotations

const READ_AUTH: Precondition = { kind: 'requires_auth', scope: 'jira:read' };
const WRITE_AUTH: Precondition = { kind: 'requires_auth', scope: 'jira:write' };
const AFTER_LOOKUP: Precondition = { kind: 'after_tool_output', prefixes: ['search_', 'get_', 'list_'] };

const READ: Precondition[] = [READ_AUTH];
const WRITE: Precondition[] = [WRITE_AUTH];
const WRITE_AFTER_LOOKUP: Precondition[] = [WRITE_AUTH, AFTER_LOOKUP];

type Annotations = ToolSpec['annotations'];
/** Reads against the remote Jira site. */
const READ_ONLY: Annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
/** Creates something new each call (issue, comment, worklog, sprint). */
const ADDITIVE: Annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
/** Sets a state; repeating the call changes nothing more (assign, watch, add to sprint). */
const SET_STATE: Annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true };
/** Overwrites or removes existing data; repeating it is harmless. */
const OVERWRITE: Annotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true };
/** Overwrites state and depends on the current state (workflow transitions). */
const DESTRUCTIVE_STEP: Annotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

// ---------------------------------------------------------------- recurring parameters

const ISSUE_KEY_PATTERN = '^[A-Z][A-Z0-9_]+-\\d+$';

const ISSUE_KEY: JsonSchema = {
  type: 'string',
  description: "Jira issue key: project key, hyphen, issue number (e.g. 'PAY-142', 'OPS-87').",
  pattern: ISSUE_KEY_PATTERN,
};

const PROJECT_KEY: JsonSchema = {
  type: 'string',
  description:
    "Jira project key, the uppercase prefix of its issue keys (e.g. 'PAY', 'OPS'). Never guess it: ask the user if it is unknown.",
  pattern: '^[A-Z][A-Z0-9_]+$',
};

const OPTIONAL_PROJECT_KEY: JsonSchema = {
  type: 'string',
  description: "(Optional) Jira project key to narrow the results (e.g. 'PAY').",
  pattern: '^[A-Z][A-Z0-9_]+$',
};

const FIELDS: JsonSchema = {
  type: 'string',
  description:
    "(Optional) Comma-separated fields to return, e.g. 'summary,status,customfield_10016'. Use '*all' for every field including custom fields.",
  default: 'summary,status,assignee,priority,issuetype,updated',
};

const EXPAND: JsonSchema = {
  type: 'array',
  description: '(Optional) Extra sections for the REST API to expand in the response.',
  items: { type: 'string', enum: ['renderedFields', 'names', 'schema', 'transitions', 'editmeta', 'changelog', 'operations'] },
  uniqueItems: true,
  default: [],
};

const JQL: JsonSchema = {
  type: 'string',
  description:
    'JQL (Jira Query Language) query. Examples: "project = PAY AND status = \'In Progress\'", "assignee = currentUser() AND resolution = Unresolved", "sprint in openSprints() AND labels = backend", "parent = PAY-100", "updated >= -7d ORDER BY priority DESC".',
};

const START_AT: JsonSchema = {
  type: 'integer',
  description: 'Zero-based index of the first result to return (offset pagination).',
  minimum: 0,
  default: 0,
};

const LIMIT: JsonSchema = {
  type: 'integer',
  description: 'Maximum number of results to return (1-50).',
  minimum: 1,
  maximum: 50,
  default: 10,
};

const MAX_RESULTS: JsonSchema = {
  type: 'integer',
  description: 'Maximum number of entries to return per page (1-100).',
  minimum: 1,
  maximum: 100,
  default: 50,
};

const BOARD_ID: JsonSchema = {
  type: 'string',
  description: "Numeric ID of the agile board (e.g. '84'); find it with get_agile_boards.",
  pattern: '^\\d+$',
};

const SPRINT_ID: JsonSchema = {
  type: 'string',
  description: "Numeric ID of the sprint (e.g. '1207'); list a board's sprints with get_sprints_from_board.",
  pattern: '^\\d+$',
};

const USER_IDENTIFIER: JsonSchema = {
  type: 'string',
  description:
    "The user: Cloud account ID, email address or display name (e.g. '5b10ac8d82e05b22cc7d4ef5', 'maria.lopez@example.com', 'Maria Lopez'); Server/Data Center also accepts the username.",
};

const ASSIGNEE: JsonSchema = {
  type: 'string',
  description: "(Optional) Assignee's account ID, email or display name; '' to unassign, '-1' for the project default.",
};

const SUMMARY: JsonSchema = {
  type: 'string',
  description: 'One-line title of the issue.',
  minLength: 1,
  maxLength: 255,
};

const ISSUE_TYPE: JsonSchema = {
  type: 'string',
  description:
    "Issue type name as configured in the project, e.g. 'Task', 'Bug', 'Story', 'Epic' or 'Subtask'. Use 'Subtask' (not 'Sub-task') together with parent.",
};

const DESCRIPTION_MD: JsonSchema = {
  type: 'string',
  description: '(Optional) Issue description in Markdown; headings, lists, code blocks and links are converted.',
};

const PRIORITY: JsonSchema = {
  type: 'string',
  description: '(Optional) Priority name.',
  enum: ['Highest', 'High', 'Medium', 'Low', 'Lowest'],
};

const LABELS: JsonSchema = {
  type: 'array',
  description: '(Optional) Labels; each is a single word without spaces. Replaces the existing labels.',
  items: { type: 'string', pattern: '^\\S+$' },
  uniqueItems: true,
};

const COMPONENTS: JsonSchema = {
  type: 'array',
  description: "(Optional) Names of existing project components (e.g. ['Frontend', 'API']).",
  items: { type: 'string' },
  uniqueItems: true,
};

const DUE_DATE: JsonSchema = {
  type: 'string',
  description: '(Optional) Due date (YYYY-MM-DD).',
  format: 'date',
};

const PARENT_KEY: JsonSchema = {
  type: 'string',
  description: "(Optional) Key of the parent issue: the epic for a story or task, or the parent for a subtask (e.g. 'PAY-100').",
  pattern: ISSUE_KEY_PATTERN,
};

const ADDITIONAL_FIELDS: JsonSchema = {
  type: 'object',
  description:
    '(Optional) Any other fields keyed by field ID, e.g. {"customfield_10016": 5} for story points or {"fixVersions": [{"name": "v2.4.0"}]}.',
  additionalProperties: true,
};

const COMMENT_BODY: JsonSchema = {
  type: 'string',
  description: 'Comment text in Markdown. Mention people with [~accountid:ID].',
  minLength: 1,
  maxLength: 32767,
};

const OPTIONAL_COMMENT: JsonSchema = {
  type: 'string',
  description: '(Optional) Comment to add in the same request, in Markdown.',
};

const VISIBILITY: JsonSchema = {
  type: 'object',
  description: '(Optional) Restrict the comment to a group or project role; omit for everyone who can browse the issue.',
  properties: {
    type: { type: 'string', enum: ['group', 'role'] },
    value: { type: 'string', description: "Group or role name, e.g. 'jira-developers' or 'Administrators'." },
  },
  required: ['type', 'value'],
  additionalProperties: false,
};

const NOTIFY_USERS: JsonSchema = {
  type: 'boolean',
  description: 'Send email notifications to watchers. Turning it off needs project admin rights.',
  default: true,
};

const ISSUE_KEYS: JsonSchema = {
  type: 'array',
  description: "Issue keys to act on (e.g. ['PAY-142', 'PAY-150']).",
  items: ISSUE_KEY,
  minItems: 1,
  maxItems: 50,
  uniqueItems: true,
};

const TIME_SPENT: JsonSchema = {
  type: 'string',
  description: "Duration in Jira format: weeks, days, hours, minutes, e.g. '45m', '2h', '1h 30m', '1d'.",
  pattern: '^(\\d+[wdhm]\\s*)+$',
};

const DATE_TIME: JsonSchema = {
  type: 'string',
  description: "ISO 8601 date-time with offset (e.g. '2024-06-03T09:00:00+02:00').",
  format: 'date-time',
};

const DATE: JsonSchema = {
  type: 'string',
  description: '(Optional) Date (YYYY-MM-DD).',
  format: 'date',
};

const SPRINT_STATE: JsonSchema = {
  type: 'string',
  description: 'Sprint state.',
  enum: ['future', 'active', 'closed'],
};

const SPRINT_GOAL: JsonSchema = {
  type: 'string',
  description: '(Optional) Sprint goal shown on the board header.',
  maxLength: 1000,
};

const INCLUDE_ARCHIVED: JsonSchema = {
  type: 'boolean',
  description: 'Include archived items in the results.',
  default: false,
};

// ---------------------------------------------------------------- recurring required lists

const REQ_ISSUE: string[] = ['issue_key'];
const REQ_PROJECT: string[] = ['project_key'];
const REQ_BOARD: string[] = ['board_id'];
const REQ_SPRINT: string[] = ['sprint_id'];
const REQ_QUERY: string[] = ['query'];
const REQ_NONE: string[] = [];

// ---------------------------------------------------------------- recurring output fragments

const USER_OUT: JsonSchema = {
  type: 'object',
  description: 'A Jira user.',
  properties: {
    account_id: { type: 'string', description: 'Account ID (username on Server/DC).' },
    display_name: { type: 'string' },
    email: { type: ['string', 'null'], description: 'Null when hidden.' },
  },
};

const STATUS_OUT: JsonSchema = {
  type: 'object',
  description: 'Workflow status.',
  properties: {
    name: { type: 'string', description: "Status name, e.g. 'In Review'." },
    category: { type: 'string', enum: ['To Do', 'In Progress', 'Done'], description: 'Status category.' },
  },
};

const ISSUE_ROW: JsonSchema = {
  type: 'object',
  properties: {
    key: { type: 'string' },
    summary: { type: 'string' },
    status: { type: 'string', description: 'Current status name.' },
    issue_type: { type: 'string' },
    priority: { type: 'string' },
    assignee: { type: ['string', 'null'], description: 'Display name, null when unassigned.' },
    updated: { type: 'string', format: 'date-time' },
  },
};

const ISSUES_OUT: JsonSchema = {
  type: 'array',
  description: 'Matching issues with the requested fields.',
  items: ISSUE_ROW,
};

const TOTAL_OUT: JsonSchema = { type: ['integer', 'null'], description: 'Total number of matches, when Jira reports it.' };
const START_AT_OUT: JsonSchema = { type: 'integer', description: 'Index of the first returned item.' };
const MAX_RESULTS_OUT: JsonSchema = { type: 'integer', description: 'Page size that was applied.' };
const IS_LAST_OUT: JsonSchema = { type: 'boolean', description: 'True when this is the last page.' };
const KEY_OUT: JsonSchema = { type: 'string', description: 'Key of the affected issue.' };
const ISSUE_URL_OUT: JsonSchema = { type: 'string', format: 'uri', description: 'Browser link to the issue.' };
const ISSUE_ID_OUT: JsonSchema = { type: 'string', description: 'Numeric issue ID.' };
const TIMESTAMP_OUT: JsonSchema = { type: 'string', format: 'date-time', description: 'ISO 8601 timestamp.' };
const MESSAGE_OUT: JsonSchema = { type: 'string', description: 'Human-readable confirmation.' };
const ISSUE_AFTER_OUT: JsonSchema = {
  type: 'object',
  description: 'The issue after the change: key, summary, status, assignee, priority, updated.',
  additionalProperties: true,
};

const ISSUE_PAGE_OUT: Record<string, JsonSchema> = {
  issues: ISSUES_OUT,
  total: TOTAL_OUT,
  start_at: START_AT_OUT,
  max_results: MAX_RESULTS_OUT,
};

const SPRINT_OUT: Record<string, JsonSchema> = {
  id: { type: 'integer', description: 'Sprint ID.' },
  name: { type: 'string', description: 'Sprint name.' },
  state: { type: 'string', enum: ['future', 'active', 'closed'], description: 'Sprint state.' },
  start_date: { type: ['string', 'null'], format: 'date-time', description: 'Planned start.' },
  end_date: { type: ['string', 'null'], format: 'date-time', description: 'Planned end.' },
  complete_date: { type: ['string', 'null'], format: 'date-time', description: 'When the sprint was closed.' },
  goal: { type: ['string', 'null'], description: 'Sprint goal.' },
};

const VERSION_OUT: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'Version ID.' },
    name: { type: 'string', description: 'Version name.' },
    description: { type: ['string', 'null'], description: 'Version description.' },
    released: { type: 'boolean', description: 'Marked as released.' },
    archived: { type: 'boolean', description: 'Archived versions are hidden from pickers.' },
    start_date: { type: ['string', 'null'], format: 'date', description: 'Start date.' },
    release_date: { type: ['string', 'null'], format: 'date', description: 'Planned or actual release date.' },
    overdue: { type: 'boolean', description: 'Unreleased and past its release date.' },
  },
};

// ---------------------------------------------------------------- sample data reused in responses

const SITE = 'https://acme.atlassian.net';
const MARIA = { account_id: '5b10ac8d82e05b22cc7d4ef5', display_name: 'Maria Lopez', email: 'maria.lopez@acme.example' };
const TOM = { account_id: '5c2f1e77a1b9f30c4e8d2a10', display_name: 'Tom Baker', email: 'tom.baker@acme.example' };
const AISHA = { account_id: '60a7d3c2b8e4f1006a9c5d21', display_name: 'Aisha Khan', email: null };
const DEVON = { account_id: '62e9b0f4c1a2d30071b4e8f3', display_name: 'Devon Price', email: 'devon.price@acme.example' };

// ---------------------------------------------------------------- issues: search and read

const searchIssues: ToolSpec = {
  name: 'search_issues',
  title: 'Search Issues',
  description:
    'Search Jira issues with a JQL (Jira Query Language) query and return one page of matches with the requested fields. Results follow the ORDER BY clause of the query, or issue key order when there is none.',
  params: {
    jql: JQL,
    fields: FIELDS,
    start_at: START_AT,
    limit: LIMIT,
    expand: EXPAND,
    projects_filter: {
      type: 'array',
      description: '(Optional) Only return issues from these project keys; overrides the JIRA_PROJECTS_FILTER setting.',
      items: PROJECT_KEY,
    },
    next_page_token: {
      type: 'string',
      description: '(Optional) Cursor from a previous page (Jira Cloud enhanced search). When set, start_at is ignored.',
    },
    validate_query: {
      type: 'string',
      description: "JQL validation: 'strict' fails on errors, 'warn' returns warnings, 'none' skips checks.",
      enum: ['strict', 'warn', 'none'],
      default: 'strict',
    },
  },
  required: ['jql'],
  output: {
    ...ISSUE_PAGE_OUT,
    next_page_token: { type: ['string', 'null'], description: 'Cursor for the next page, null on the last page.' },
    warnings: { type: 'array', items: { type: 'string' }, description: 'JQL validation warnings.' },
  },
  annotations: READ_ONLY,
  summary: 'Find Jira issues with a JQL query, such as open bugs in a project, tickets assigned to someone, or work updated recently',
  tags: ['issues', 'search', 'jql'],
  preconditions: READ,
  sampleResponse: {
    issues: [
      {
        key: 'PAY-142',
        summary: 'Refund webhook retries exhaust after 3 attempts',
        status: 'In Progress',
        issue_type: 'Bug',
        priority: 'High',
        assignee: 'Maria Lopez',
        updated: '2024-06-03T14:22:10.000+0000',
      },
      {
        key: 'PAY-139',
        summary: 'Currency rounding differs between invoice PDF and API',
        status: 'To Do',
        issue_type: 'Bug',
        priority: 'Medium',
        assignee: null,
        updated: '2024-06-02T09:05:44.000+0000',
      },
      {
        key: 'PAY-131',
        summary: 'Add idempotency keys to payout endpoint',
        status: 'In Review',
        issue_type: 'Story',
        priority: 'High',
        assignee: 'Tom Baker',
        updated: '2024-05-31T17:48:02.000+0000',
      },
    ],
    total: 27,
    start_at: 0,
    max_results: 10,
    next_page_token: null,
    warnings: [],
  },
  notes: [
    'At most 50 issues come back per call; page through larger result sets with start_at or next_page_token.',
    'Values with spaces or reserved words must be quoted in JQL, for example status = "In Review" or summary ~ "null pointer".',
    'On Jira Cloud the enhanced search endpoint does not compute an exact count, so total can be null; rely on next_page_token instead.',
    'A query naming an unknown field, project or status fails with HTTP 400 and the JQL parser message unless validate_query is none.',
    "JQL functions such as currentUser(), openSprints(), membersOf() and startOfWeek() are evaluated on the server in the caller's context.",
  ],
  intents: [
    'what bugs are still lying around in {jira_project}?',
    'show me everything {jira_user} has on their plate right now',
    'any tickets about {topic} touched {date_range}?',
    'pull up the high priority stuff in {jira_project} that nobody picked up',
    'list tickets sitting in {jira_status}',
    'run this query for me: project = OPS and labels = oncall',
  ],
  ambiguousIntents: ['can you check jira for me?', 'what do we have on {topic}?'],
};

const getIssue: ToolSpec = {
  name: 'get_issue',
  title: 'Get Issue',
  description:
    'Get the details of one Jira issue: fields, description, recent comments and its epic or parent relationship. Use include to inline transitions, watchers, worklogs, remote links or the changelog instead of making separate calls.',
  params: {
    issue_key: ISSUE_KEY,
    fields: FIELDS,
    comment_limit: {
      type: 'integer',
      description: 'Maximum number of most recent comments to include (0 for none).',
      minimum: 0,
      maximum: 100,
      default: 10,
    },
    include: {
      type: 'array',
      description: '(Optional) Related sections to inline in the response.',
      items: { type: 'string', enum: ['transitions', 'watchers', 'worklogs', 'remote_links', 'changelog'] },
      uniqueItems: true,
    },
  },
  required: REQ_ISSUE,
  output: {
    key: KEY_OUT,
    id: ISSUE_ID_OUT,
    url: ISSUE_URL_OUT,
    summary: { type: 'string', description: 'Issue title.' },
    description: { type: ['string', 'null'], description: 'Description as Markdown.' },
    status: STATUS_OUT,
    issue_type: { type: 'string', description: 'Issue type name.' },
    priority: { type: ['string', 'null'], description: 'Priority name.' },
    assignee: USER_OUT,
    reporter: USER_OUT,
    labels: { type: 'array', items: { type: 'string' }, description: 'Labels.' },
    parent: { type: ['object', 'null'], description: 'Epic or parent issue: key and summary.' },
    created: TIMESTAMP_OUT,
    updated: TIMESTAMP_OUT,
    comments: {
      type: 'array',
      description: 'Most recent comments, oldest first.',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          author: { type: 'string', description: 'Author display name.' },
          body: { type: 'string', description: 'Comment as Markdown.' },
          created: { type: 'string', format: 'date-time' },
        },
      },
    },
    custom_fields: { type: 'object', description: 'Requested custom field values.', additionalProperties: true },
  },
  annotations: READ_ONLY,
  summary: 'Open a specific Jira ticket by its key to see its status, description, assignee, comments and parent epic',
  tags: ['issues', 'read'],
  preconditions: READ,
  sampleResponse: {
    key: 'PAY-142',
    id: '10458',
    url: `${SITE}/browse/PAY-142`,
    summary: 'Refund webhook retries exhaust after 3 attempts',
    description:
      'When the acquirer is slow, refund webhooks fail three times and are dropped.\n\n**Expected:** exponential backoff up to 24h.\n\n**Seen in:** prod, EU region.',
    status: { name: 'In Progress', category: 'In Progress' },
    issue_type: 'Bug',
    priority: 'High',
    assignee: MARIA,
    reporter: TOM,
    labels: ['payments', 'webhooks'],
    parent: { key: 'PAY-100', summary: 'Refund reliability' },
    created: '2024-05-28T08:14:00.000+0000',
    updated: '2024-06-03T14:22:10.000+0000',
    comments: [
      { id: '20311', author: 'Tom Baker', body: 'Seeing 412 dropped refunds since Friday.', created: '2024-05-31T10:02:00.000+0000' },
      { id: '20340', author: 'Maria Lopez', body: 'Backoff patch is up for review.', created: '2024-06-03T14:20:00.000+0000' },
    ],
    custom_fields: { customfield_10016: 3 },
  },
  notes: [
    'Jira answers 404 both for a missing issue and for one in a project the caller cannot browse, so "not found" may be a permission problem.',
    'The key of an issue that was moved to another project still resolves; the response carries the current key.',
    'Descriptions and comments are converted from Atlassian Document Format to Markdown, and complex macros may be simplified.',
    "Passing fields='*all' can return hundreds of custom fields and a very large response; request only what you need.",
  ],
  intents: [
    "what's going on with {jira_key}?",
    'pull up {jira_key} for me',
    'who reported {jira_key} and what did they say?',
    'give me the full details on that ticket',
    'does {jira_key} roll up to some bigger initiative?',
  ],
};

const getProjectIssues: ToolSpec = {
  name: 'get_project_issues',
  title: 'Get Project Issues',
  description:
    'List the issues of one Jira project, newest first, optionally narrowed to a status category. A shortcut for "project = KEY ORDER BY created DESC" without writing JQL.',
  params: {
    project_key: PROJECT_KEY,
    status_category: {
      type: 'string',
      description: '(Optional) Only issues whose status falls in this category.',
      enum: ['To Do', 'In Progress', 'Done'],
    },
    fields: FIELDS,
    start_at: START_AT,
    limit: LIMIT,
  },
  required: REQ_PROJECT,
  output: ISSUE_PAGE_OUT,
  annotations: READ_ONLY,
  summary: 'See the most recently created tickets in a Jira project, optionally only the ones not started, underway or finished',
  tags: ['issues', 'projects'],
  preconditions: READ,
  sampleResponse: {
    issues: [
      {
        key: 'OPS-91',
        summary: 'Rotate TLS certs on edge proxies',
        status: 'To Do',
        issue_type: 'Task',
        priority: 'High',
        assignee: 'Devon Price',
        updated: '2024-06-03T07:40:12.000+0000',
      },
      {
        key: 'OPS-90',
        summary: 'Grafana alert for disk >85% on db-replica-2',
        status: 'In Progress',
        issue_type: 'Task',
        priority: 'Medium',
        assignee: 'Kenji Sato',
        updated: '2024-06-02T16:11:54.000+0000',
      },
      {
        key: 'OPS-87',
        summary: 'Nightly backup job exceeds 4h window',
        status: 'Blocked',
        issue_type: 'Bug',
        priority: 'Highest',
        assignee: 'Devon Price',
        updated: '2024-06-01T22:03:31.000+0000',
      },
    ],
    total: 91,
    start_at: 0,
    max_results: 10,
  },
  notes: [
    'Archived projects return 404 until an administrator restores them.',
    'Projects outside JIRA_PROJECTS_FILTER are reported as not found.',
    'For any filter beyond the status category, such as assignee or label, use search_issues with JQL.',
  ],
  intents: [
    "what's new in {jira_project}?",
    'show me the latest {number} tickets filed under {jira_project}',
    'which {jira_project} items are still untouched?',
    'dump the backlog for {jira_project}',
  ],
  ambiguousIntents: ['what tickets do we have?'],
};

// ---------------------------------------------------------------- issues: create, update, delete

const createIssue: ToolSpec = {
  name: 'create_issue',
  title: 'Create Issue',
  description:
    'Create a new Jira issue in a project, optionally under an epic or as a subtask of a parent issue. Returns the key and link of the new issue.',
  params: {
    project_key: PROJECT_KEY,
    summary: SUMMARY,
    issue_type: ISSUE_TYPE,
    description: DESCRIPTION_MD,
    assignee: ASSIGNEE,
    priority: PRIORITY,
    labels: LABELS,
    components: COMPONENTS,
    due_date: DUE_DATE,
    parent: PARENT_KEY,
    additional_fields: ADDITIONAL_FIELDS,
  },
  required: ['project_key', 'summary', 'issue_type'],
  output: {
    key: KEY_OUT,
    id: ISSUE_ID_OUT,
    url: ISSUE_URL_OUT,
    issue: ISSUE_AFTER_OUT,
    warnings: { type: 'array', items: { type: 'string' }, description: 'Fields that were ignored or adjusted.' },
    message: MESSAGE_OUT,
  },
  annotations: ADDITIVE,
  summary: 'File a new Jira ticket such as a bug, task or story in a project, with title, description, assignee and priority',
  tags: ['issues', 'create'],
  preconditions: WRITE,
  sampleResponse: {
    key: 'WEB-2302',
    id: '11873',
    url: `${SITE}/browse/WEB-2302`,
    issue: {
      key: 'WEB-2302',
      summary: 'Checkout button unresponsive on Safari 17',
      status: 'To Do',
      issue_type: 'Bug',
      assignee: 'Aisha Khan',
      priority: 'High',
      labels: ['safari', 'checkout'],
      updated: '2024-06-03T15:12:40.000+0000',
    },
    warnings: ["Component 'Checkout' not found in WEB; ignored."],
    message: 'Issue WEB-2302 created in project WEB.',
  },
  notes: [
    "Fields missing from the project's create screen are rejected with HTTP 400 naming the field.",
    'Required custom fields depend on the project configuration; a missing one fails with "customfield_10020 is required".',
    "Subtasks need parent and the project's subtask issue type; other issue types accept parent only for epics or on team-managed projects.",
    'The reporter is the authenticated account unless it holds Modify Reporter permission and additional_fields sets reporter.',
  ],
  intents: [
    'open a bug in {jira_project} for {topic}',
    'log a ticket: checkout button does nothing on Safari',
    'can you raise a task for {jira_user} to look into {topic}?',
    'make a story in {jira_project} under the payments epic',
    'we need a new {jira_project} card for the release checklist, high priority',
  ],
  ambiguousIntents: ['put this in jira'],
};

const batchCreateIssues: ToolSpec = {
  name: 'batch_create_issues',
  title: 'Batch Create Issues',
  description:
    'Create several Jira issues in one request, for example the tasks of a checklist or the stories of an epic. Each entry takes the same fields as create_issue.',
  params: {
    issues: {
      type: 'array',
      description: 'Issues to create, in order.',
      minItems: 1,
      maxItems: 50,
      items: {
        type: 'object',
        properties: {
          project_key: PROJECT_KEY,
          summary: SUMMARY,
          issue_type: ISSUE_TYPE,
          description: DESCRIPTION_MD,
          assignee: ASSIGNEE,
          priority: PRIORITY,
          labels: LABELS,
          parent: PARENT_KEY,
        },
        required: ['project_key', 'summary', 'issue_type'],
      },
    },
    validate_only: {
      type: 'boolean',
      description: 'Only validate the entries against create metadata without creating anything.',
      default: false,
    },
  },
  required: ['issues'],
  output: {
    created: {
      type: 'array',
      description: 'Created issues in input order.',
      items: {
        type: 'object',
        properties: { index: { type: 'integer' }, key: { type: 'string' }, url: { type: 'string', format: 'uri' } },
      },
    },
    errors: {
      type: 'array',
      description: 'Entries that failed.',
      items: { type: 'object', properties: { index: { type: 'integer' }, messages: { type: 'array', items: { type: 'string' } } } },
    },
  },
  annotations: ADDITIVE,
  summary: 'Create many Jira tickets at once, for example splitting an epic into stories or turning a checklist into tasks',
  tags: ['issues', 'create', 'bulk'],
  preconditions: WRITE,
  sampleResponse: {
    created: [
      { index: 0, key: 'MOB-71', url: `${SITE}/browse/MOB-71` },
      { index: 1, key: 'MOB-72', url: `${SITE}/browse/MOB-72` },
      { index: 3, key: 'MOB-73', url: `${SITE}/browse/MOB-73` },
    ],
    errors: [{ index: 2, messages: ["issuetype: The issue type selected is invalid ('Spike' does not exist in MOB)."] }],
  },
  notes: [
    'Up to 50 issues per call; Jira creates them in one bulk request, so valid entries are created even when others fail.',
    'An error entry carries the index of the failing item in the issues array.',
    'Set validate_only to check a large batch before creating it; nothing is written in that mode.',
  ],
  intents: [
    'make tickets out of these {number} bullet points in {jira_project}',
    'break {jira_key} down into frontend, backend and QA pieces',
    'add a card for each of these release steps please',
    'file one issue per item on the onboarding list',
  ],
};

const updateIssue: ToolSpec = {
  name: 'update_issue',
  title: 'Update Issue',
  description:
    'Update fields of an existing Jira issue, optionally moving it through a transition and adding a comment in the same call. Only the fields you pass are changed.',
  params: {
    issue_key: ISSUE_KEY,
    fields: {
      type: 'object',
      description: 'Fields to change. Values replace the current ones.',
      properties: {
        summary: SUMMARY,
        description: DESCRIPTION_MD,
        assignee: ASSIGNEE,
        priority: PRIORITY,
        labels: LABELS,
        components: COMPONENTS,
        due_date: DUE_DATE,
      },
      additionalProperties: false,
    },
    additional_fields: ADDITIONAL_FIELDS,
    transition: {
      type: 'string',
      description: '(Optional) Transition name or ID to run after the fields are saved.',
    },
    comment: OPTIONAL_COMMENT,
    notify_users: NOTIFY_USERS,
    return_fields: {
      type: 'string',
      description: "Comma-separated fields to return after the update; keep it small (e.g. 'status') to save tokens.",
      default: 'summary,status,assignee,updated',
    },
  },
  required: REQ_ISSUE,
  output: {
    key: KEY_OUT,
    url: ISSUE_URL_OUT,
    updated_fields: { type: 'array', items: { type: 'string' }, description: 'Fields that were changed.' },
    status: { type: 'string', description: 'Status after the update.' },
    comment_id: { type: ['string', 'null'], description: 'ID of the added comment.' },
    issue: ISSUE_AFTER_OUT,
  },
  annotations: OVERWRITE,
  summary: 'Change fields on an existing Jira ticket, like its title, description, priority, labels or due date',
  tags: ['issues', 'edit'],
  preconditions: WRITE_AFTER_LOOKUP,
  sampleResponse: {
    key: 'WEB-2291',
    url: `${SITE}/browse/WEB-2291`,
    updated_fields: ['priority', 'labels', 'duedate'],
    status: 'In Progress',
    comment_id: '20412',
    issue: {
      key: 'WEB-2291',
      summary: 'SSO login loops on Safari 17',
      status: 'In Progress',
      assignee: 'Aisha Khan',
      priority: 'Highest',
      labels: ['sso', 'safari', 'frontend'],
      duedate: '2024-06-14',
      updated: '2024-06-03T15:01:27.000+0000',
    },
  },
  notes: [
    'Labels and components replace the existing values; to add one label, read the issue and send the combined list.',
    'A field absent from the edit screen fails with HTTP 400 "Field cannot be set. It is not on the appropriate screen, or unknown."',
    'The transition runs after the fields are saved; if it fails, the field changes are kept and the error is reported.',
    'Some configurations silently ignore assignee here; assign_issue uses the dedicated endpoint and is more reliable.',
  ],
  intents: [
    'make {jira_key} more urgent',
    'rename {jira_key} to something clearer about {topic}',
    'push the deadline on {jira_key} out a week',
    'tag {jira_key} as frontend too, keep the other tags',
    'the writeup on {jira_key} still mentions the old API, correct it',
  ],
  ambiguousIntents: ['can you update the ticket?', 'change that one for me'],
};

const deleteIssue: ToolSpec = {
  name: 'delete_issue',
  title: 'Delete Issue',
  description: 'Permanently delete a Jira issue, and optionally its subtasks. This cannot be undone.',
  params: {
    issue_key: ISSUE_KEY,
    delete_subtasks: {
      type: 'boolean',
      description: 'Also delete the subtasks; required when the issue has any.',
      default: false,
    },
  },
  required: REQ_ISSUE,
  output: {
    key: KEY_OUT,
    deleted: { type: 'boolean', description: 'True when the issue was removed.' },
    subtasks_deleted: { type: 'array', items: { type: 'string' }, description: 'Keys of subtasks removed with it.' },
    message: MESSAGE_OUT,
  },
  annotations: OVERWRITE,
  summary: 'Permanently remove a Jira ticket that was created by mistake or is a duplicate, optionally with its subtasks',
  tags: ['issues', 'delete'],
  preconditions: WRITE_AFTER_LOOKUP,
  sampleResponse: {
    key: 'SUP-530',
    deleted: true,
    subtasks_deleted: ['SUP-531', 'SUP-532'],
    message:
      'Issue SUP-530 (Test ticket - please ignore) and 2 subtasks were permanently deleted, together with 3 comments, 1 worklog and 2 attachments. Links from SUP-512 and SUP-528 were removed.',
  },
  notes: [
    'Jira has no recycle bin for issues: the issue, its comments, worklogs and attachments are gone and the key is never reused.',
    'Requires the Delete Issues project permission, which most non-admin roles lack.',
    'An issue that has subtasks fails with HTTP 400 unless delete_subtasks is true.',
    "Prefer closing duplicates with a Won't Do or Duplicate resolution when history should be kept.",
  ],
  intents: [
    'nuke {jira_key}, it was a test',
    'get rid of {jira_key} entirely, we already have the same thing filed',
    'trash that ticket and its subtasks',
    'wipe {jira_key} out of jira for good',
  ],
};

// ---------------------------------------------------------------- workflow and assignment

const getTransitions: ToolSpec = {
  name: 'get_transitions',
  title: 'Get Transitions',
  description:
    'List the workflow transitions currently available for a Jira issue, with the status each one leads to. Call it before transition_issue to find a valid transition ID.',
  params: {
    issue_key: ISSUE_KEY,
    include_fields: {
      type: 'boolean',
      description: 'Also return the fields each transition screen asks for, such as resolution.',
      default: false,
    },
  },
  required: REQ_ISSUE,
  output: {
    issue_key: KEY_OUT,
    current_status: STATUS_OUT,
    transitions: {
      type: 'array',
      description: 'Transitions valid from the current status.',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string', description: 'Transition ID to pass to transition_issue.' },
          name: { type: 'string', description: "Transition name, e.g. 'Start Review'." },
          to_status: { type: 'string', description: 'Status the issue ends up in.' },
          has_screen: { type: 'boolean', description: 'Whether the transition shows a screen.' },
          required_fields: { type: 'array', items: { type: 'string' }, description: 'Fields that must be supplied.' },
        },
      },
    },
  },
  annotations: READ_ONLY,
  summary: 'See which workflow steps a Jira ticket can move to next from its current status, and what each step requires',
  tags: ['workflow', 'transitions', 'read'],
  preconditions: READ,
  sampleResponse: {
    issue_key: 'WEB-2291',
    current_status: { name: 'In Progress', category: 'In Progress' },
    transitions: [
      { id: '21', name: 'Start Review', to_status: 'In Review', has_screen: false, required_fields: [] },
      { id: '31', name: 'Block', to_status: 'Blocked', has_screen: true, required_fields: ['customfield_10050'] },
      { id: '41', name: 'Resolve', to_status: 'Done', has_screen: true, required_fields: ['resolution'] },
      { id: '11', name: 'Back to To Do', to_status: 'To Do', has_screen: false, required_fields: [] },
    ],
  },
  notes: [
    'Only transitions valid from the current status and allowed for the caller are listed; without Transition Issues permission the list is empty.',
    'Transition names belong to the workflow, so the same target status can be reached through differently named transitions in different projects.',
    'required_fields is only filled when include_fields is true.',
  ],
  intents: [
    'where can {jira_key} go from here?',
    'what are my options for moving {jira_key} along?',
    'can {jira_key} go straight to {jira_status} or is there a step in between?',
    'which statuses are allowed next for this ticket?',
  ],
};

const transitionIssue: ToolSpec = {
  name: 'transition_issue',
  title: 'Transition Issue',
  description:
    'Move a Jira issue to another workflow status by running one of its available transitions, optionally setting a resolution and adding a comment.',
  params: {
    issue_key: ISSUE_KEY,
    transition: {
      type: 'string',
      description: "Transition ID or name (case-insensitive), e.g. '21' or 'Start Review'. Get the valid ones with get_transitions.",
    },
    resolution: {
      type: 'string',
      description: "(Optional) Resolution when closing, e.g. 'Done', 'Fixed', 'Won't Do', 'Duplicate'.",
    },
    fields: {
      type: 'object',
      description: '(Optional) Other fields the transition screen requires, keyed by field ID.',
      additionalProperties: true,
    },
    comment: OPTIONAL_COMMENT,
  },
  required: ['issue_key', 'transition'],
  output: {
    key: KEY_OUT,
    from_status: { type: 'string', description: 'Status before the transition.' },
    to_status: { type: 'string', description: 'Status after the transition.' },
    transition_id: { type: 'string', description: 'ID of the transition that ran.' },
    resolution: { type: ['string', 'null'], description: 'Resolution set, if any.' },
    comment_id: { type: ['string', 'null'], description: 'ID of the added comment.' },
    issue: ISSUE_AFTER_OUT,
  },
  annotations: DESTRUCTIVE_STEP,
  summary: 'Move a Jira ticket to another workflow status, such as In Review, Blocked or Done, optionally with a resolution',
  tags: ['workflow', 'transitions', 'status'],
  preconditions: WRITE_AFTER_LOOKUP,
  sampleResponse: {
    key: 'PAY-142',
    from_status: 'In Review',
    to_status: 'Done',
    transition_id: '41',
    resolution: 'Fixed',
    comment_id: '20418',
    issue: {
      key: 'PAY-142',
      summary: 'Refund webhook retries exhaust after 3 attempts',
      status: 'Done',
      assignee: 'Maria Lopez',
      priority: 'High',
      resolutiondate: '2024-06-03T15:20:11.000+0000',
      updated: '2024-06-03T15:20:11.000+0000',
    },
  },
  notes: [
    'Fails with HTTP 400 when the transition is not available from the current status; check get_transitions first.',
    'When two transitions share a name, pass the ID instead of the name.',
    'Workflow validators and conditions, such as "assignee must be set", are enforced and their messages returned.',
    'Post functions may change other fields, for example clearing the assignee or setting the resolution automatically.',
  ],
  intents: [
    'bump {jira_key} to {jira_status} please',
    'mark {jira_key} as finished, it shipped',
    '{jira_key} is stuck waiting on legal, flag it as {jira_status}',
    'close that one out as a duplicate',
    'kick {jira_key} over to review',
  ],
  ambiguousIntents: ['move it along'],
};

const assignIssue: ToolSpec = {
  name: 'assign_issue',
  title: 'Assign Issue',
  description:
    'Assign a Jira issue to a user, or unassign it, through the dedicated assignee endpoint. More reliable than setting assignee with update_issue.',
  params: {
    issue_key: ISSUE_KEY,
    assignee: ASSIGNEE,
  },
  required: ['issue_key', 'assignee'],
  output: {
    key: KEY_OUT,
    assignee: USER_OUT,
    previous_assignee: USER_OUT,
    message: MESSAGE_OUT,
  },
  annotations: SET_STATE,
  summary: 'Set or clear the assignee of a Jira ticket so a specific teammate, or you, is responsible for it',
  tags: ['issues', 'assignment', 'users'],
  preconditions: WRITE,
  sampleResponse: {
    key: 'MOB-66',
    assignee: { account_id: '60a7d3c2b8e4f1006a9c5d21', display_name: 'Aisha Khan', email: null },
    previous_assignee: { account_id: '5c2f1e77a1b9f30c4e8d2a10', display_name: 'Tom Baker', email: 'tom.baker@acme.example' },
    message: 'MOB-66 (Android crash on cold start with dark mode) reassigned from Tom Baker to Aisha Khan.',
  },
  notes: [
    'The user needs the Assignable User permission in the project, otherwise Jira answers "User cannot be assigned issues".',
    'Display names are resolved by search; when several users match, the call fails and lists the candidates.',
    'Unassigning fails when the project disallows unassigned issues.',
  ],
  intents: [
    'hand {jira_key} to {jira_user}',
    'put {jira_user} on {jira_key}',
    "take me off {jira_key}, nobody's on it for now",
    'can {jira_user} own that bug instead?',
    'give it to me',
  ],
  ambiguousIntents: ['can someone take this?'],
};

// ---------------------------------------------------------------- comments and history

const addComment: ToolSpec = {
  name: 'add_comment',
  title: 'Add Comment',
  description:
    'Add a comment to a Jira issue. The comment can be restricted to a group or project role, or posted as an internal note on Jira Service Management issues.',
  params: {
    issue_key: ISSUE_KEY,
    body: COMMENT_BODY,
    visibility: VISIBILITY,
    public: {
      type: 'boolean',
      description: '(Optional) Jira Service Management only: true for a reply customers can see, false for an internal note.',
    },
  },
  required: ['issue_key', 'body'],
  output: {
    id: { type: 'string', description: 'Comment ID.' },
    issue_key: KEY_OUT,
    author: USER_OUT,
    created: TIMESTAMP_OUT,
    url: { type: 'string', format: 'uri', description: 'Link to the comment.' },
    visibility: { type: ['object', 'null'], description: 'Applied restriction.' },
    body: { type: 'string', description: 'Stored comment text as Markdown.' },
  },
  annotations: ADDITIVE,
  summary: 'Write a comment on a Jira ticket, optionally restricted to a group, a project role or service desk agents',
  tags: ['comments', 'collaboration'],
  preconditions: WRITE,
  sampleResponse: {
    id: '20412',
    issue_key: 'OPS-87',
    author: DEVON,
    created: '2024-06-03T15:04:51.000+0000',
    url: `${SITE}/browse/OPS-87?focusedCommentId=20412`,
    visibility: { type: 'role', value: 'Developers' },
    body: "Backup window moved to 01:00 UTC; will confirm after tonight's run.",
  },
  notes: [
    'Plain @names are not converted to mentions; use [~accountid:ID] so the person is notified.',
    'A visibility group or role must exist and include the caller, otherwise the comment is rejected.',
    'On Service Management projects a comment without public=false is visible to the customer.',
  ],
  intents: [
    'leave a note on {jira_key} saying the fix is deployed',
    'reply on {jira_key}: waiting on {jira_user} for logs',
    'drop an internal-only remark on {jira_key}',
    'tell the folks watching {jira_key} that the {topic} root cause is found',
    'write on the ticket that QA passed',
  ],
  ambiguousIntents: ['let them know on the ticket'],
};

const editComment: ToolSpec = {
  name: 'edit_comment',
  title: 'Edit Comment',
  description: 'Replace the text of an existing comment on a Jira issue, optionally changing who can see it.',
  params: {
    issue_key: ISSUE_KEY,
    comment_id: {
      type: 'string',
      description: "ID of the comment to edit (e.g. '20412'); get_issue lists comment IDs.",
      pattern: '^\\d+$',
    },
    body: COMMENT_BODY,
    visibility: VISIBILITY,
    notify_users: NOTIFY_USERS,
  },
  required: ['issue_key', 'comment_id', 'body'],
  output: {
    id: { type: 'string', description: 'Comment ID.' },
    issue_key: KEY_OUT,
    update_author: USER_OUT,
    updated: TIMESTAMP_OUT,
    body: { type: 'string', description: 'New comment text as Markdown.' },
  },
  annotations: OVERWRITE,
  summary: 'Fix a typo or reword something already said in a Jira ticket discussion',
  tags: ['comments', 'edit'],
  preconditions: WRITE_AFTER_LOOKUP,
  sampleResponse: {
    id: '20340',
    issue_key: 'PAY-142',
    update_author: MARIA,
    updated: '2024-06-03T15:10:02.000+0000',
    body: 'Backoff patch is up for review: retries now back off exponentially up to 24h.',
  },
  notes: [
    "Editing your own comments needs Edit Own Comments; editing someone else's needs Edit All Comments.",
    'The previous text is not kept in the issue history, only an edited marker.',
    'Comments on closed issues may be locked by the workflow and return HTTP 403.',
  ],
  intents: [
    'I misspelled stuff in my last remark on {jira_key}, can you correct it?',
    'rephrase what I wrote on {jira_key}, the date was wrong',
    'make my note on that ticket visible to developers only',
    'change my reply on {jira_key} to say {date} instead',
  ],
};

const getIssueChangelog: ToolSpec = {
  name: 'get_issue_changelog',
  title: 'Get Issue Changelog',
  description:
    'Get the change history of a Jira issue: who changed which field, from what value to what, and when. Filter by field to follow just status or assignee changes.',
  params: {
    issue_key: ISSUE_KEY,
    fields: {
      type: 'string',
      description: "(Optional) Comma-separated field names to keep, e.g. 'status,assignee'. Omit for all fields.",
    },
    start_at: START_AT,
    max_results: MAX_RESULTS,
  },
  required: REQ_ISSUE,
  output: {
    issue_key: KEY_OUT,
    histories: {
      type: 'array',
      description: 'Change groups, oldest first.',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          author: { type: 'string', description: 'Who made the change.' },
          created: { type: 'string', format: 'date-time' },
          items: {
            type: 'array',
            items: {
              type: 'object',
              properties: { field: { type: 'string' }, from: { type: ['string', 'null'] }, to: { type: ['string', 'null'] } },
            },
          },
        },
      },
    },
    total: TOTAL_OUT,
    is_last: IS_LAST_OUT,
  },
  annotations: READ_ONLY,
  summary: 'Review the history of a Jira ticket to see who changed its status, assignee or other fields and when',
  tags: ['history', 'audit', 'issues'],
  preconditions: READ,
  sampleResponse: {
    issue_key: 'DATA-314',
    histories: [
      {
        id: '88120',
        author: 'Kenji Sato',
        created: '2024-05-20T09:12:00.000+0000',
        items: [{ field: 'status', from: 'To Do', to: 'In Progress' }],
      },
      {
        id: '88342',
        author: 'Kenji Sato',
        created: '2024-05-24T16:40:00.000+0000',
        items: [{ field: 'assignee', from: 'Kenji Sato', to: 'Aisha Khan' }],
      },
      {
        id: '88517',
        author: 'Automation for Jira',
        created: '2024-05-29T11:03:00.000+0000',
        items: [
          { field: 'status', from: 'In Progress', to: 'Blocked' },
          { field: 'labels', from: null, to: 'waiting-vendor' },
        ],
      },
    ],
    total: 3,
    is_last: true,
  },
  notes: [
    'Changes made by automation rules show the automation account as author.',
    'Fields hidden by field security or issue security levels are left out for callers who cannot see them.',
    'Long histories are paged; busy issues can have hundreds of change groups.',
  ],
  intents: [
    'who moved {jira_key} to {jira_status}?',
    'when did {jira_key} get reassigned?',
    'show the audit trail for {jira_key}',
    "how long has {jira_key} been bouncing around, what's changed?",
  ],
};

// ---------------------------------------------------------------- time tracking

const addWorklog: ToolSpec = {
  name: 'add_worklog',
  title: 'Add Worklog',
  description: 'Log time spent on a Jira issue, with an optional note and start time, and adjust the remaining estimate.',
  params: {
    issue_key: ISSUE_KEY,
    time_spent: TIME_SPENT,
    started: { ...DATE_TIME, description: '(Optional) When the work started, ISO 8601. Defaults to now.' },
    comment: { type: 'string', description: '(Optional) What the time was spent on, in Markdown.' },
    adjust_estimate: {
      type: 'string',
      description:
        "How to change the remaining estimate: 'auto' subtracts the logged time, 'leave' keeps it, 'new' sets new_estimate, 'manual' subtracts reduce_by.",
      enum: ['auto', 'leave', 'new', 'manual'],
      default: 'auto',
    },
    new_estimate: { ...TIME_SPENT, description: "Remaining estimate to set when adjust_estimate is 'new'." },
    reduce_by: { ...TIME_SPENT, description: "Amount to subtract when adjust_estimate is 'manual'." },
  },
  required: ['issue_key', 'time_spent'],
  output: {
    id: { type: 'string', description: 'Worklog ID.' },
    issue_key: KEY_OUT,
    author: USER_OUT,
    time_spent: { type: 'string', description: 'Logged duration as entered.' },
    time_spent_seconds: { type: 'integer', description: 'Logged duration in seconds.' },
    started: TIMESTAMP_OUT,
    remaining_estimate: { type: ['string', 'null'], description: 'Remaining estimate after logging.' },
    comment: { type: ['string', 'null'], description: 'Worklog note.' },
  },
  annotations: ADDITIVE,
  summary: 'Record hours worked on a Jira ticket, with a note about what was done, and update the remaining estimate',
  tags: ['worklog', 'time-tracking'],
  preconditions: WRITE,
  sampleResponse: {
    id: '31877',
    issue_key: 'OPS-87',
    author: DEVON,
    time_spent: '2h 30m',
    time_spent_seconds: 9000,
    started: '2024-06-03T09:00:00.000+0200',
    remaining_estimate: '1d 5h 30m',
    comment: 'Profiled backup job; split large tables into parallel streams.',
  },
  notes: [
    'Requires time tracking to be enabled on the site and the Work On Issues permission.',
    'Durations follow the site time tracking settings, by default 8-hour days and 5-day weeks.',
    "With adjust_estimate 'auto' the remaining estimate is reduced by the logged time but never below zero.",
    "new_estimate is required when adjust_estimate is 'new', and reduce_by when it is 'manual'.",
  ],
  intents: [
    'put {number} hours against {jira_key}',
    'I spent 90 minutes on {jira_key} {date}, write that down',
    'log 1d on {jira_key} for the migration work',
    'book my time on that ticket: 45m code review',
  ],
};

const getWorklog: ToolSpec = {
  name: 'get_worklog',
  title: 'Get Worklog',
  description: 'List the time entries logged on a Jira issue, with author, duration, start time and note, and the total time spent.',
  params: {
    issue_key: ISSUE_KEY,
    started_after: { ...DATE_TIME, description: '(Optional) Only entries that started at or after this time.' },
    started_before: { ...DATE_TIME, description: '(Optional) Only entries that started before this time.' },
    start_at: START_AT,
    max_results: MAX_RESULTS,
  },
  required: REQ_ISSUE,
  output: {
    issue_key: KEY_OUT,
    worklogs: {
      type: 'array',
      description: 'Time entries, oldest first.',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          author: { type: 'string', description: 'Who logged the time.' },
          time_spent: { type: 'string' },
          time_spent_seconds: { type: 'integer' },
          started: { type: 'string', format: 'date-time' },
          comment: { type: ['string', 'null'] },
        },
      },
    },
    total_time_spent_seconds: { type: 'integer', description: 'Sum over all entries of the issue.' },
    total: TOTAL_OUT,
  },
  annotations: READ_ONLY,
  summary: 'See how much time has been logged on a Jira ticket, by whom and when',
  tags: ['worklog', 'time-tracking', 'read'],
  preconditions: READ,
  sampleResponse: {
    issue_key: 'OPS-87',
    worklogs: [
      {
        id: '31702',
        author: 'Devon Price',
        time_spent: '3h',
        time_spent_seconds: 10800,
        started: '2024-05-30T13:00:00.000+0200',
        comment: 'Reproduced slow dump on staging.',
      },
      {
        id: '31755',
        author: 'Kenji Sato',
        time_spent: '1h',
        time_spent_seconds: 3600,
        started: '2024-05-31T10:30:00.000+0900',
        comment: null,
      },
      {
        id: '31877',
        author: 'Devon Price',
        time_spent: '2h 30m',
        time_spent_seconds: 9000,
        started: '2024-06-03T09:00:00.000+0200',
        comment: 'Split large tables into parallel streams.',
      },
    ],
    total_time_spent_seconds: 23400,
    total: 3,
  },
  notes: [
    'Worklogs restricted to a group or role are left out for callers outside it, so totals can differ between users.',
    'The started_after and started_before filters apply to the start time, not to when the entry was created.',
  ],
  intents: [
    'how many hours went into {jira_key}?',
    "who's been booking time on {jira_key}?",
    'show the time entries for {jira_key} from {date_range}',
    'what did {jira_user} log on that ticket?',
  ],
};

// ---------------------------------------------------------------- links and epics

const LINK_TYPE_NAME: JsonSchema = {
  type: 'string',
  description: "Link type name, e.g. 'Blocks', 'Relates', 'Duplicate', 'Cloners'; list them with get_link_types.",
};

const linkIssues: ToolSpec = {
  name: 'link_issues',
  title: 'Link Issues',
  description:
    'Create a typed link between two Jira issues, such as "blocks", "relates to" or "duplicates", optionally with a comment on the inward issue.',
  params: {
    link_type: LINK_TYPE_NAME,
    inward_issue_key: ISSUE_KEY,
    outward_issue_key: ISSUE_KEY,
    comment: OPTIONAL_COMMENT,
    comment_visibility: VISIBILITY,
  },
  required: ['link_type', 'inward_issue_key', 'outward_issue_key'],
  output: {
    link_id: { type: 'string', description: 'ID of the new link, used by remove_issue_link.' },
    link_type: { type: 'string', description: 'Link type name.' },
    inward_issue: KEY_OUT,
    outward_issue: KEY_OUT,
    reads_as: { type: 'string', description: 'The link as a sentence, e.g. "OPS-87 is blocked by PAY-142".' },
    message: MESSAGE_OUT,
  },
  annotations: SET_STATE,
  summary: 'Connect two Jira tickets with a relationship such as blocks, relates to or duplicates',
  tags: ['links', 'dependencies'],
  preconditions: WRITE_AFTER_LOOKUP,
  sampleResponse: {
    link_id: '44019',
    link_type: 'Blocks',
    inward_issue: 'OPS-87',
    outward_issue: 'PAY-142',
    reads_as: 'PAY-142 blocks OPS-87',
    message:
      'Link created: PAY-142 (Refund webhook retries exhaust after 3 attempts) blocks OPS-87 (Nightly backup job exceeds 4h window). Comment 20420 added to OPS-87.',
  },
  notes: [
    'For "Blocks" the outward issue blocks the inward issue; get_link_types shows the inward and outward wording of every type.',
    'Requires Link Issues permission in both projects and issue linking enabled in the global settings.',
    'Linking the same pair with the same type twice does not create a second link.',
  ],
  intents: [
    "{jira_key} can't start until PAY-139 is done, wire them up",
    'mark {jira_key} as a dupe of SUP-512',
    'tie {jira_key} and WEB-2290 together, they are the same {topic} problem',
    'record that {jira_key} depends on the infra ticket',
  ],
  ambiguousIntents: ['hook these two up'],
};

const getLinkTypes: ToolSpec = {
  name: 'get_link_types',
  title: 'Get Link Types',
  description:
    'List the issue link types configured on the Jira site, with the inward and outward phrasing of each (e.g. "is blocked by" / "blocks").',
  params: {
    name_filter: {
      type: 'string',
      description: '(Optional) Case-insensitive substring to filter link type names.',
    },
  },
  required: REQ_NONE,
  output: {
    link_types: {
      type: 'array',
      description: 'Configured link types.',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          name: { type: 'string', description: 'Name to pass as link_type.' },
          inward: { type: 'string', description: 'Phrase from the inward side.' },
          outward: { type: 'string', description: 'Phrase from the outward side.' },
        },
      },
    },
  },
  annotations: READ_ONLY,
  summary: 'Check which kinds of relationships Jira tickets can have with each other, and how each direction is worded',
  tags: ['links', 'metadata'],
  preconditions: READ,
  sampleResponse: {
    link_types: [
      { id: '10000', name: 'Blocks', inward: 'is blocked by', outward: 'blocks' },
      { id: '10001', name: 'Cloners', inward: 'is cloned by', outward: 'clones' },
      { id: '10002', name: 'Duplicate', inward: 'is duplicated by', outward: 'duplicates' },
      { id: '10003', name: 'Relates', inward: 'relates to', outward: 'relates to' },
      { id: '10200', name: 'Problem/Incident', inward: 'is caused by', outward: 'causes' },
    ],
  },
  notes: [
    'Link types are global: every project sees the same list.',
    'Custom link types added by administrators appear alongside the defaults.',
  ],
  intents: [
    'what ways can two tickets be related here?',
    'is there a "causes" style connection available?',
    'how do I say one issue is a clone of another here?',
    'list the dependency kinds jira supports',
  ],
};

const removeIssueLink: ToolSpec = {
  name: 'remove_issue_link',
  title: 'Remove Issue Link',
  description: 'Delete a link between two Jira issues by its link ID. Both issues are kept; only the relationship is removed.',
  params: {
    link_id: {
      type: 'string',
      description: "ID of the issue link (e.g. '44019'), from get_issue with the links field or from link_issues.",
      pattern: '^\\d+$',
    },
  },
  required: ['link_id'],
  output: {
    link_id: { type: 'string', description: 'ID of the removed link.' },
    removed: { type: 'boolean', description: 'True when the link was deleted.' },
    inward_issue: KEY_OUT,
    outward_issue: KEY_OUT,
    link_type: { type: 'string', description: 'Type of the removed link.' },
    message: MESSAGE_OUT,
  },
  annotations: OVERWRITE,
  summary: 'Break the connection between two Jira tickets, for example a wrong blocker or duplicate relationship',
  tags: ['links', 'delete'],
  preconditions: WRITE_AFTER_LOOKUP,
  sampleResponse: {
    link_id: '44019',
    removed: true,
    inward_issue: 'OPS-87',
    outward_issue: 'PAY-142',
    link_type: 'Blocks',
    message:
      'Removed link 44019 (Blocks): PAY-142 (Refund webhook retries exhaust after 3 attempts) no longer blocks OPS-87 (Nightly backup job exceeds 4h window). OPS-87 has 1 remaining link.',
  },
  notes: [
    'Needs Link Issues permission in the project of the source issue.',
    'Returns 404 when the link was already removed or the caller cannot see either issue.',
  ],
  intents: [
    "{jira_key} isn't actually blocked anymore, drop that dependency",
    'undo the duplicate relationship I set on {jira_key}',
    'unlink those two tickets',
    'that association between the tickets was a mistake, take it off',
  ],
};

const linkToEpic: ToolSpec = {
  name: 'link_to_epic',
  title: 'Link to Epic',
  description: 'Put an existing Jira issue under an epic. Any previous epic of the issue is replaced.',
  params: {
    issue_key: ISSUE_KEY,
    epic_key: { ...ISSUE_KEY, description: "Key of the epic (e.g. 'PAY-100')." },
  },
  required: ['issue_key', 'epic_key'],
  output: {
    issue_key: KEY_OUT,
    epic_key: { type: 'string', description: 'Key of the epic.' },
    epic_summary: { type: 'string', description: 'Title of the epic.' },
    previous_epic: { type: ['string', 'null'], description: 'Epic the issue belonged to before.' },
    issue: ISSUE_AFTER_OUT,
    message: MESSAGE_OUT,
  },
  annotations: OVERWRITE,
  summary: 'Group a Jira story, task or bug under a larger epic so it rolls up into that body of work',
  tags: ['epics', 'planning'],
  preconditions: WRITE,
  sampleResponse: {
    issue_key: 'PAY-150',
    epic_key: 'PAY-100',
    epic_summary: 'Refund reliability',
    previous_epic: 'PAY-88',
    issue: {
      key: 'PAY-150',
      summary: 'Retry refunds rejected with code 05',
      status: 'To Do',
      assignee: null,
      priority: 'Medium',
      parent: 'PAY-100',
    },
    message: 'PAY-150 moved from epic PAY-88 (Payout reporting) to PAY-100 (Refund reliability).',
  },
  notes: [
    'Team-managed and newer company-managed projects store the epic in the parent field; older sites use the Epic Link custom field.',
    'Subtasks cannot be put under an epic directly; they follow their parent issue.',
    'The target must be of issue type Epic, otherwise Jira returns HTTP 400.',
  ],
  intents: [
    'file {jira_key} under the refund reliability epic',
    'make {jira_key} part of PAY-100',
    'this bug belongs with the {topic} initiative, attach it there',
    'move {jira_key} to a different parent epic',
  ],
};

const createRemoteIssueLink: ToolSpec = {
  name: 'create_remote_issue_link',
  title: 'Create Remote Issue Link',
  description:
    "Attach a web link or Confluence page to a Jira issue; it appears in the issue's Links section and opens the external resource.",
  params: {
    issue_key: ISSUE_KEY,
    url: { type: 'string', format: 'uri', description: 'Address to link to (web page, dashboard, Confluence page).' },
    title: { type: 'string', description: "Link text shown on the issue (e.g. 'Incident timeline').", maxLength: 255 },
    summary: { type: 'string', description: '(Optional) Short description shown under the title.' },
    relationship: {
      type: 'string',
      description: "(Optional) Group heading for the link, e.g. 'mentioned in', 'documentation', 'causes'.",
      default: 'links to',
    },
    icon_url: { type: 'string', format: 'uri', description: '(Optional) URL of a 16x16 icon.' },
    global_id: {
      type: 'string',
      description: '(Optional) Stable identifier of the remote object; reusing it updates the existing link.',
    },
  },
  required: ['issue_key', 'url', 'title'],
  output: {
    id: { type: 'string', description: 'Remote link ID.' },
    issue_key: KEY_OUT,
    url: { type: 'string', format: 'uri', description: 'Linked address.' },
    title: { type: 'string', description: 'Link text.' },
    relationship: { type: 'string', description: 'Group heading of the link.' },
    updated_existing: { type: 'boolean', description: 'True when global_id matched an existing link.' },
    message: MESSAGE_OUT,
  },
  annotations: SET_STATE,
  summary: 'Attach an outside web page, dashboard or Confluence doc to a Jira ticket as a clickable reference',
  tags: ['links', 'web', 'confluence'],
  preconditions: WRITE,
  sampleResponse: {
    id: '10381',
    issue_key: 'OPS-87',
    url: 'https://status.example.com/incidents/2024-06-01-backup',
    title: 'Incident timeline: backup overrun',
    relationship: 'mentioned in',
    updated_existing: false,
    message: "Web link 'Incident timeline: backup overrun' added to OPS-87 under 'mentioned in'.",
  },
  notes: [
    'Reusing a global_id replaces that link instead of adding a duplicate.',
    'Confluence URLs show the page icon and live title when an application link to Confluence is configured.',
    'Needs Link Issues permission; the URL itself is not fetched or validated.',
  ],
  intents: [
    'stick {url} on {jira_key} so people can find it',
    'add the postmortem doc link to {jira_key}',
    'point the incident ticket at the status page',
    'can you hook our runbook page up to {jira_key}?',
  ],
};

// ---------------------------------------------------------------- watchers and users

const getIssueWatchers: ToolSpec = {
  name: 'get_issue_watchers',
  title: 'Get Issue Watchers',
  description: 'List the users watching a Jira issue and whether the caller is one of them.',
  params: { issue_key: ISSUE_KEY },
  required: REQ_ISSUE,
  output: {
    issue_key: KEY_OUT,
    watch_count: { type: 'integer', description: 'Number of watchers.' },
    is_watching: { type: 'boolean', description: 'Whether the caller watches the issue.' },
    watchers: { type: 'array', items: USER_OUT, description: 'Watching users.' },
  },
  annotations: READ_ONLY,
  summary: 'Find out who follows a Jira ticket and gets notified when it changes',
  tags: ['watchers', 'users', 'read'],
  preconditions: READ,
  sampleResponse: {
    issue_key: 'WEB-2291',
    watch_count: 3,
    is_watching: false,
    watchers: [MARIA, AISHA, { account_id: '63f0c1d2e3a4b5006c7d8e91', display_name: 'Kenji Sato', email: 'kenji.sato@acme.example' }],
  },
  notes: [
    'Seeing the watcher list needs View Voters and Watchers permission; without it only watch_count is returned.',
    'Users who hide their profile appear with display name only.',
  ],
  intents: [
    "who's keeping an eye on {jira_key}?",
    'who gets pinged about {jira_key}?',
    'am I subscribed to updates on {jira_key}?',
    'how many people care about that ticket?',
  ],
};

const addWatcher: ToolSpec = {
  name: 'add_watcher',
  title: 'Add Issue Watcher',
  description: 'Add a user to the watchers of a Jira issue so they are notified of changes. Defaults to the authenticated user.',
  params: {
    issue_key: ISSUE_KEY,
    user_identifier: {
      ...USER_IDENTIFIER,
      description: '(Optional) User to add: account ID, email or display name. Defaults to the caller.',
    },
  },
  required: REQ_ISSUE,
  output: {
    issue_key: KEY_OUT,
    watch_count: { type: 'integer', description: 'Watchers after the change.' },
    watchers: { type: 'array', items: USER_OUT, description: 'All watchers after the change.' },
  },
  annotations: SET_STATE,
  summary: 'Subscribe yourself or a colleague to a Jira ticket so they get notified whenever it changes',
  tags: ['watchers', 'notifications'],
  preconditions: WRITE,
  sampleResponse: {
    issue_key: 'SUP-530',
    watch_count: 4,
    watchers: [MARIA, TOM, AISHA, DEVON],
  },
  notes: [
    'Adding someone else needs Manage Watchers permission; adding yourself only needs Browse Projects.',
    'Adding a user who already watches the issue changes nothing.',
    'Fails when watching is disabled in the global settings.',
  ],
  intents: [
    'keep {jira_user} in the loop on {jira_key}',
    'cc me on {jira_key}',
    'I want pings any time that ticket moves',
    'make sure {jira_user} hears about anything new on {jira_key}',
  ],
};

const getUserProfile: ToolSpec = {
  name: 'get_user_profile',
  title: 'Get User Profile',
  description: 'Get the profile of a Jira user: account ID, display name, email, time zone, active flag and optionally groups.',
  params: {
    user_identifier: USER_IDENTIFIER,
    include_groups: {
      type: 'boolean',
      description: 'Also return the groups the user belongs to.',
      default: false,
    },
  },
  required: ['user_identifier'],
  output: {
    account_id: { type: 'string', description: 'Cloud account ID or Server username.' },
    display_name: { type: 'string', description: 'Full name.' },
    email: { type: ['string', 'null'], description: 'Email, null when hidden.' },
    active: { type: 'boolean', description: 'False for deactivated accounts.' },
    time_zone: { type: 'string', description: 'IANA time zone of the profile.' },
    locale: { type: 'string', description: 'Language setting.' },
    groups: { type: 'array', items: { type: 'string' }, description: 'Group names, when requested.' },
    avatar_url: { type: 'string', format: 'uri', description: '48x48 avatar image.' },
  },
  annotations: READ_ONLY,
  summary: "Look up a Jira person's account details, such as their account ID, email, time zone and groups",
  tags: ['users', 'read'],
  preconditions: READ,
  sampleResponse: {
    account_id: '62e9b0f4c1a2d30071b4e8f3',
    display_name: 'Devon Price',
    email: 'devon.price@acme.example',
    active: true,
    time_zone: 'Europe/Berlin',
    locale: 'en_GB',
    groups: ['jira-software-users', 'ops-oncall', 'site-admins'],
    avatar_url: 'https://avatar-management.services.atlassian.net/62e9b0f4c1a2d30071b4e8f3/48',
  },
  notes: [
    "The email is null when the user's privacy settings hide it.",
    'Deactivated users are still returned, with active set to false.',
    'include_groups needs the Browse Users and Groups global permission.',
  ],
  intents: [
    "what's {jira_user}'s user id in jira?",
    'what hours does {jira_user} keep, where are they based?',
    'is {jira_user} still an active user?',
    'who am I logged in as in jira?',
  ],
};

const searchAssignableUsers: ToolSpec = {
  name: 'search_assignable_users',
  title: 'Search Assignable Users',
  description:
    'Find users who can be assigned issues in a project or on a specific issue, by partial name, username or email. Use it to turn a name into an account ID.',
  params: {
    query: { type: 'string', description: "Name, username or email fragment (e.g. 'lopez', 'maria.l')." },
    project_key: OPTIONAL_PROJECT_KEY,
    issue_key: { ...ISSUE_KEY, description: "(Optional) Issue key to scope the search (e.g. 'PAY-142')." },
    max_results: MAX_RESULTS,
  },
  required: REQ_QUERY,
  output: {
    users: { type: 'array', items: USER_OUT, description: 'Matching assignable users.' },
    total: TOTAL_OUT,
  },
  annotations: READ_ONLY,
  summary: 'Find which teammates a Jira ticket or project can be given to, matching a partial name or email',
  tags: ['users', 'search', 'assignment'],
  preconditions: READ,
  sampleResponse: {
    users: [
      { account_id: '5b10ac8d82e05b22cc7d4ef5', display_name: 'Maria Lopez', email: 'maria.lopez@acme.example' },
      { account_id: '64a1b2c3d4e5f6007a8b9c0d', display_name: 'Mario Lorenzetti', email: 'mario.lorenzetti@acme.example' },
      { account_id: '65c3d4e5f6a7b8009c0d1e2f', display_name: 'Marianne Ortiz', email: null },
    ],
    total: 3,
  },
  notes: [
    'Exactly one of project_key or issue_key must be given; the search needs an assignment context.',
    'Only users holding the Assignable User permission there are returned.',
    'Matching is case-insensitive and by prefix of display name, email or username.',
  ],
  intents: [
    'who on {jira_project} can take tickets?',
    "is there a 'Kenji' I can give {jira_key} to?",
    'find the account for {jira_user} in {jira_project}',
    'which people are eligible to own {jira_key}?',
  ],
  ambiguousIntents: ['who can I give this to?'],
};

// ---------------------------------------------------------------- agile boards and sprints

const getAgileBoards: ToolSpec = {
  name: 'get_agile_boards',
  title: 'Get Agile Boards',
  description: 'List Jira Software boards, filtered by name, project or board type.',
  params: {
    board_name: { type: 'string', description: '(Optional) Board name or part of it (fuzzy match).' },
    project_key: OPTIONAL_PROJECT_KEY,
    board_type: { type: 'string', description: '(Optional) Board type.', enum: ['scrum', 'kanban', 'simple'] },
    start_at: START_AT,
    limit: LIMIT,
  },
  required: REQ_NONE,
  output: {
    boards: {
      type: 'array',
      description: 'Boards visible to the caller.',
      items: {
        type: 'object',
        properties: {
          id: { type: 'integer', description: 'Board ID.' },
          name: { type: 'string' },
          type: { type: 'string', enum: ['scrum', 'kanban', 'simple'] },
          project_key: { type: ['string', 'null'], description: 'Project the board is located in.' },
        },
      },
    },
    total: TOTAL_OUT,
    is_last: IS_LAST_OUT,
  },
  annotations: READ_ONLY,
  summary: 'Find the scrum or kanban board for a team or project, to get its ID for sprint and board queries',
  tags: ['agile', 'boards'],
  preconditions: READ,
  sampleResponse: {
    boards: [
      { id: 84, name: 'PAY Scrum', type: 'scrum', project_key: 'PAY' },
      { id: 91, name: 'Payments Kanban (support)', type: 'kanban', project_key: 'PAY' },
      { id: 112, name: 'Cross-team release train', type: 'scrum', project_key: null },
      { id: 127, name: 'Mobile Apps', type: 'scrum', project_key: 'MOB' },
    ],
    total: 4,
    is_last: true,
  },
  notes: [
    'Only boards whose saved filter the caller can view are listed.',
    'Board names are not unique; use the id from the result afterwards.',
  ],
  intents: [
    "what's the board id for {jira_project}?",
    'do we have any continuous-flow boards set up?',
    "look up the mobile squad's sprint board",
    'list boards for {jira_project}',
  ],
};

const getBoardIssues: ToolSpec = {
  name: 'get_board_issues',
  title: 'Get Board Issues',
  description:
    "List the issues on an agile board, in board rank order, optionally narrowed with extra JQL on top of the board's own filter.",
  params: {
    board_id: BOARD_ID,
    jql: { ...JQL, description: '(Optional) Extra JQL applied on top of the board filter, e.g. "assignee = currentUser()".' },
    fields: FIELDS,
    start_at: START_AT,
    limit: LIMIT,
  },
  required: REQ_BOARD,
  output: ISSUE_PAGE_OUT,
  annotations: READ_ONLY,
  summary: "See everything on a team's scrum or kanban board, in the board's ranking, optionally filtered further",
  tags: ['agile', 'boards', 'issues'],
  preconditions: READ,
  sampleResponse: {
    issues: [
      {
        key: 'MOB-66',
        summary: 'Android crash on cold start with dark mode',
        status: 'In Progress',
        issue_type: 'Bug',
        priority: 'Highest',
        assignee: 'Aisha Khan',
        updated: '2024-06-03T11:20:44.000+0000',
      },
      {
        key: 'MOB-64',
        summary: 'Offline cart sync',
        status: 'In Review',
        issue_type: 'Story',
        priority: 'High',
        assignee: 'Tom Baker',
        updated: '2024-06-02T18:02:10.000+0000',
      },
      {
        key: 'MOB-70',
        summary: 'Bump React Native to 0.74',
        status: 'To Do',
        issue_type: 'Task',
        priority: 'Low',
        assignee: null,
        updated: '2024-06-01T08:45:00.000+0000',
      },
    ],
    total: 38,
    start_at: 0,
    max_results: 10,
  },
  notes: [
    "The board's saved filter is applied first, and jql only narrows it further.",
    'Scrum boards include backlog issues; use get_sprint_issues for one sprint.',
    'Kanban boards drop done issues older than the board sub-filter window.',
  ],
  intents: [
    "what's sitting on the mobile board?",
    'show my cards on board 84',
    "anything on our team's board that's {jira_status}?",
    "what's at the very top of our board?",
  ],
  ambiguousIntents: ['how is the team doing?'],
};

const getSprintsFromBoard: ToolSpec = {
  name: 'get_sprints_from_board',
  title: 'Get Sprints from Board',
  description: 'List the sprints of a scrum board, optionally only future, active or closed ones, with dates and goals.',
  params: {
    board_id: BOARD_ID,
    state: { ...SPRINT_STATE, description: '(Optional) Only sprints in this state.' },
    start_at: START_AT,
    limit: LIMIT,
  },
  required: REQ_BOARD,
  output: {
    sprints: { type: 'array', description: 'Sprints of the board.', items: { type: 'object', properties: SPRINT_OUT } },
    is_last: IS_LAST_OUT,
  },
  annotations: READ_ONLY,
  summary: "Find a team's current, upcoming or past sprints with their dates and goals",
  tags: ['agile', 'sprints'],
  preconditions: READ,
  sampleResponse: {
    sprints: [
      {
        id: 1206,
        name: 'Sprint 42',
        state: 'closed',
        start_date: '2024-05-06T08:00:00.000Z',
        end_date: '2024-05-20T08:00:00.000Z',
        complete_date: '2024-05-20T09:14:00.000Z',
        goal: 'Ship refund retries',
      },
      {
        id: 1207,
        name: 'Sprint 43',
        state: 'active',
        start_date: '2024-05-20T08:00:00.000Z',
        end_date: '2024-06-03T08:00:00.000Z',
        complete_date: null,
        goal: 'Payout idempotency',
      },
      { id: 1208, name: 'Sprint 44', state: 'future', start_date: null, end_date: null, complete_date: null, goal: null },
    ],
    is_last: true,
  },
  notes: [
    'Kanban boards have no sprints and return HTTP 400.',
    'Sprints are listed by sequence, oldest first; pass state active to get only the running one.',
  ],
  intents: [
    'which sprint is running for the payments team?',
    'when does {sprint} end?',
    "what's planned after {sprint}?",
    'list old sprints on board 84',
  ],
};

const getSprintIssues: ToolSpec = {
  name: 'get_sprint_issues',
  title: 'Get Sprint Issues',
  description: 'List the issues committed to a sprint, with status and assignee, optionally narrowed with JQL.',
  params: {
    sprint_id: SPRINT_ID,
    jql: { ...JQL, description: '(Optional) Extra JQL to narrow the sprint issues, e.g. "status != Done".' },
    fields: FIELDS,
    start_at: START_AT,
    limit: LIMIT,
  },
  required: REQ_SPRINT,
  output: {
    sprint: {
      type: 'object',
      description: 'The sprint.',
      properties: { id: SPRINT_OUT.id, name: SPRINT_OUT.name, state: SPRINT_OUT.state },
    },
    ...ISSUE_PAGE_OUT,
  },
  annotations: READ_ONLY,
  summary: 'See the tickets planned in a sprint and where each one stands, to track sprint progress',
  tags: ['agile', 'sprints', 'issues'],
  preconditions: READ,
  sampleResponse: {
    sprint: { id: 1207, name: 'Sprint 43', state: 'active' },
    issues: [
      {
        key: 'PAY-131',
        summary: 'Add idempotency keys to payout endpoint',
        status: 'In Review',
        issue_type: 'Story',
        priority: 'High',
        assignee: 'Tom Baker',
        updated: '2024-05-31T17:48:02.000+0000',
      },
      {
        key: 'PAY-142',
        summary: 'Refund webhook retries exhaust after 3 attempts',
        status: 'In Progress',
        issue_type: 'Bug',
        priority: 'High',
        assignee: 'Maria Lopez',
        updated: '2024-06-03T14:22:10.000+0000',
      },
      {
        key: 'PAY-147',
        summary: 'Document payout API error codes',
        status: 'Done',
        issue_type: 'Task',
        priority: 'Low',
        assignee: 'Devon Price',
        updated: '2024-05-29T12:00:00.000+0000',
      },
    ],
    total: 14,
    start_at: 0,
    max_results: 10,
  },
  notes: [
    'Subtasks are returned as separate rows next to their parents.',
    'Issues removed from the sprint after it started are not listed.',
  ],
  intents: [
    "what's {jira_user} working on in {sprint}?",
    'how much is left in {sprint}?',
    "what's still not done this iteration?",
    'list everything we committed to for {sprint}',
  ],
  ambiguousIntents: ['where are we at?'],
};

const createSprint: ToolSpec = {
  name: 'create_sprint',
  title: 'Create Sprint',
  description: 'Create a new sprint on a scrum board, with optional dates and goal. The sprint starts in the future state.',
  params: {
    board_id: BOARD_ID,
    name: { type: 'string', description: "Sprint name (e.g. 'Sprint 44').", maxLength: 255 },
    start_date: { ...DATE_TIME, description: '(Optional) Planned start, ISO 8601.' },
    end_date: { ...DATE_TIME, description: '(Optional) Planned end, ISO 8601; must be after start_date.' },
    goal: SPRINT_GOAL,
  },
  required: ['board_id', 'name'],
  output: { ...SPRINT_OUT, board_id: { type: 'integer', description: 'Board the sprint belongs to.' }, message: MESSAGE_OUT },
  annotations: ADDITIVE,
  summary: 'Set up the next iteration on a scrum board, with its name, dates and goal',
  tags: ['agile', 'sprints', 'create'],
  preconditions: WRITE,
  sampleResponse: {
    id: 1209,
    name: 'Sprint 45',
    state: 'future',
    start_date: '2024-06-17T08:00:00.000Z',
    end_date: '2024-07-01T08:00:00.000Z',
    complete_date: null,
    goal: 'Multi-currency payouts behind a flag',
    board_id: 84,
    message: "Sprint 'Sprint 45' (id 1209) created on board 84 (PAY Scrum) in state future.",
  },
  notes: [
    'Starting the sprint is a separate step: use update_sprint with state active.',
    'Requires Manage Sprints permission on every project in the board filter.',
  ],
  intents: [
    'spin up {sprint} on board 84',
    'we need a new two-week cycle starting monday, focus is {topic}',
    'add another sprint to the payments board',
    'plan a sprint called Sprint 45',
  ],
};

const updateSprint: ToolSpec = {
  name: 'update_sprint',
  title: 'Update Sprint',
  description: 'Change a sprint: rename it, move its dates, update the goal, or start or close it by changing its state.',
  params: {
    sprint_id: SPRINT_ID,
    name: { type: 'string', description: '(Optional) New sprint name.' },
    state: { ...SPRINT_STATE, description: "(Optional) New state: 'active' starts the sprint, 'closed' completes it." },
    start_date: { ...DATE_TIME, description: '(Optional) New start, ISO 8601.' },
    end_date: { ...DATE_TIME, description: '(Optional) New end, ISO 8601.' },
    goal: SPRINT_GOAL,
  },
  required: REQ_SPRINT,
  output: {
    ...SPRINT_OUT,
    moved_to_backlog: { type: 'array', items: { type: 'string' }, description: 'Unfinished issues sent to the backlog on close.' },
    message: MESSAGE_OUT,
  },
  annotations: OVERWRITE,
  summary: 'Start or close a running iteration, rename or reschedule it, or change the goal the team agreed on',
  tags: ['agile', 'sprints', 'edit'],
  preconditions: WRITE_AFTER_LOOKUP,
  sampleResponse: {
    id: 1207,
    name: 'Sprint 43',
    state: 'closed',
    start_date: '2024-05-20T08:00:00.000Z',
    end_date: '2024-06-03T08:00:00.000Z',
    complete_date: '2024-06-03T09:02:41.000Z',
    goal: 'Payout idempotency',
    moved_to_backlog: ['PAY-142', 'PAY-149'],
    message: 'Sprint 43 closed: 12 of 14 issues completed; 2 unfinished issues moved to the backlog.',
  },
  notes: [
    'Starting a sprint needs start and end dates and fails if the board already has an active sprint, unless parallel sprints are enabled.',
    'Closing a sprint moves its unfinished issues to the backlog.',
    'A closed sprint cannot be reopened.',
    'Only the fields you pass are changed.',
  ],
  intents: [
    'kick off {sprint}',
    'wrap up {sprint}, we are done',
    'push the end of {sprint} by two days',
    'the aim of {sprint} is now {topic}, fix that',
  ],
};

const addIssuesToSprint: ToolSpec = {
  name: 'add_issues_to_sprint',
  title: 'Add Issues to Sprint',
  description: 'Move one or more issues into a sprint. Issues leave any other open sprint they were in.',
  params: {
    sprint_id: SPRINT_ID,
    issue_keys: ISSUE_KEYS,
  },
  required: ['sprint_id', 'issue_keys'],
  output: {
    sprint_id: { type: 'integer', description: 'Target sprint.' },
    moved: { type: 'array', items: { type: 'string' }, description: 'Issue keys now in the sprint.' },
    failed: {
      type: 'array',
      description: 'Issues that could not be moved.',
      items: { type: 'object', properties: { key: { type: 'string' }, reason: { type: 'string' } } },
    },
    message: MESSAGE_OUT,
  },
  annotations: SET_STATE,
  summary: 'Pull Jira tickets into a sprint so the team commits to them, taking them out of the backlog',
  tags: ['agile', 'sprints', 'planning'],
  preconditions: WRITE_AFTER_LOOKUP,
  sampleResponse: {
    sprint_id: 1208,
    moved: ['PAY-142', 'PAY-150', 'PAY-153'],
    failed: [{ key: 'PAY-151', reason: 'Subtasks move with their parent issue.' }],
    message:
      "3 issues moved to 'Sprint 44' (future, board 84); PAY-142 was taken out of the active 'Sprint 43'. 1 issue could not be moved.",
  },
  notes: [
    'Up to 50 issues per call.',
    'Subtasks cannot be moved on their own; they follow their parent.',
    'Closed sprints reject new issues.',
  ],
  intents: [
    'drop {jira_key} into {sprint}',
    'squeeze {jira_key} and PAY-150 into this iteration',
    'line those tickets up for {sprint}',
    'schedule {jira_key} for the upcoming sprint',
  ],
};

// ---------------------------------------------------------------- projects, versions, fields

const getProjectVersions: ToolSpec = {
  name: 'get_project_versions',
  title: 'Get Project Versions',
  description: 'List the fix versions (releases) of a Jira project with their release dates and status.',
  params: {
    project_key: PROJECT_KEY,
    status: {
      type: 'string',
      description: 'Which versions to return.',
      enum: ['all', 'released', 'unreleased', 'archived'],
      default: 'all',
    },
    order_by: {
      type: 'string',
      description: 'Sort order.',
      enum: ['sequence', 'name', 'release_date'],
      default: 'sequence',
    },
  },
  required: REQ_PROJECT,
  output: {
    versions: { type: 'array', items: VERSION_OUT, description: 'Versions of the project.' },
    total: TOTAL_OUT,
  },
  annotations: READ_ONLY,
  summary: 'See the releases planned or shipped for a Jira project, with their dates and whether they are overdue',
  tags: ['releases', 'versions', 'projects'],
  preconditions: READ,
  sampleResponse: {
    versions: [
      {
        id: '10410',
        name: 'v2.4.0',
        description: 'Refund retries, payout idempotency',
        released: true,
        archived: false,
        start_date: '2024-05-06',
        release_date: '2024-05-21',
        overdue: false,
      },
      {
        id: '10422',
        name: 'v2.5.0',
        description: 'Multi-currency payouts',
        released: false,
        archived: false,
        start_date: '2024-05-22',
        release_date: '2024-06-01',
        overdue: true,
      },
      {
        id: '10431',
        name: 'release-2024.06',
        description: null,
        released: false,
        archived: false,
        start_date: null,
        release_date: '2024-06-28',
        overdue: false,
      },
    ],
    total: 3,
  },
  notes: [
    'Archived versions are only included when status is all or archived.',
    'overdue is computed by Jira from the release date in the site time zone.',
  ],
  intents: [
    "what's on the roadmap version-wise for {jira_project}?",
    'is {version} out the door yet?',
    "when's {version} due?",
    'which {jira_project} versions are late?',
  ],
};

const createVersion: ToolSpec = {
  name: 'create_version',
  title: 'Create Version',
  description: 'Create a new fix version (release) in a Jira project, with optional dates and description.',
  params: {
    project_key: PROJECT_KEY,
    name: { type: 'string', description: "Version name (e.g. 'v2.6.0').", maxLength: 255 },
    description: { type: 'string', description: '(Optional) What the release contains.' },
    start_date: DATE,
    release_date: DATE,
    released: { type: 'boolean', description: 'Create it already marked as released.', default: false },
  },
  required: ['project_key', 'name'],
  output: {
    ...(VERSION_OUT.properties as Record<string, JsonSchema>),
    project_key: { type: 'string', description: 'Project of the version.' },
    url: { type: 'string', format: 'uri', description: 'Release page of the version.' },
  },
  annotations: ADDITIVE,
  summary: 'Add an upcoming release to a Jira project so tickets can be targeted at it',
  tags: ['releases', 'versions', 'create'],
  preconditions: WRITE,
  sampleResponse: {
    id: '10440',
    name: 'v2.6.0',
    description: 'Payout reporting, CSV exports and the reconciliation dashboard for finance',
    released: false,
    archived: false,
    start_date: '2024-06-17',
    release_date: '2024-07-15',
    overdue: false,
    project_key: 'PAY',
    url: `${SITE}/projects/PAY/versions/10440`,
  },
  notes: [
    'Needs Administer Projects permission in the project.',
    'Version names are unique within a project; a duplicate fails with HTTP 400.',
    'release_date cannot be earlier than start_date.',
  ],
  intents: [
    'set up {version} in {jira_project}',
    'we need a {version} milestone going out end of month',
    'add a fix version for the hotfix',
    'register {version} for {jira_project}, ship date the 28th',
  ],
};

const listProjects: ToolSpec = {
  name: 'list_projects',
  title: 'List Projects',
  description: 'List the Jira projects the caller can browse, optionally filtered by name or key.',
  params: {
    query: { type: 'string', description: '(Optional) Substring of the project name or key.' },
    include_archived: INCLUDE_ARCHIVED,
    start_at: START_AT,
    max_results: MAX_RESULTS,
  },
  required: REQ_NONE,
  output: {
    projects: {
      type: 'array',
      description: 'Visible projects.',
      items: {
        type: 'object',
        properties: {
          key: { type: 'string', description: 'Project key.' },
          id: { type: 'string' },
          name: { type: 'string' },
          project_type: { type: 'string', enum: ['software', 'service_desk', 'business'] },
          style: { type: 'string', enum: ['classic', 'next-gen'], description: 'Company- or team-managed.' },
          lead: { type: 'string', description: 'Project lead display name.' },
        },
      },
    },
    total: TOTAL_OUT,
    is_last: IS_LAST_OUT,
  },
  annotations: READ_ONLY,
  summary: 'See which Jira projects exist and their keys, for example to find where a team files its tickets',
  tags: ['projects', 'discovery'],
  preconditions: READ,
  sampleResponse: {
    projects: [
      { key: 'PAY', id: '10010', name: 'Payments', project_type: 'software', style: 'classic', lead: 'Maria Lopez' },
      { key: 'OPS', id: '10012', name: 'Operations', project_type: 'software', style: 'classic', lead: 'Devon Price' },
      { key: 'SUP', id: '10020', name: 'Customer Support', project_type: 'service_desk', style: 'classic', lead: 'Tom Baker' },
      { key: 'MOB', id: '10031', name: 'Mobile Apps', project_type: 'software', style: 'next-gen', lead: 'Aisha Khan' },
    ],
    total: 6,
    is_last: false,
  },
  notes: [
    'Only projects with Browse Projects permission for the caller are listed.',
    'JIRA_PROJECTS_FILTER hides projects outside the configured keys.',
  ],
  intents: [
    'what spaces do we have in jira?',
    "what's the key for the mobile team's project?",
    'which projects can I see?',
    'is there a data team project?',
  ],
};

const searchFields: ToolSpec = {
  name: 'search_fields',
  title: 'Search Fields',
  description: 'Search the Jira field catalogue by keyword, with fuzzy matching, to find the ID and JQL name of a system or custom field.',
  params: {
    keyword: {
      type: 'string',
      description: "Words to match against field names, e.g. 'story points'. Empty lists the first fields.",
      default: '',
    },
    custom_only: { type: 'boolean', description: 'Only return custom fields.', default: false },
    limit: LIMIT,
    refresh: { type: 'boolean', description: 'Reload the cached field list from Jira.', default: false },
  },
  required: REQ_NONE,
  output: {
    fields: {
      type: 'array',
      description: 'Matching fields, best match first.',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string', description: "Field ID, e.g. 'customfield_10016'." },
          name: { type: 'string' },
          custom: { type: 'boolean' },
          schema_type: { type: 'string', description: 'Value type, e.g. number, array, user.' },
          clause_names: { type: 'array', items: { type: 'string' }, description: 'Names usable in JQL.' },
        },
      },
    },
  },
  annotations: READ_ONLY,
  summary: 'Work out the internal ID or query name of a Jira field such as story points, sprint or team',
  tags: ['fields', 'metadata'],
  preconditions: READ,
  sampleResponse: {
    fields: [
      {
        id: 'customfield_10016',
        name: 'Story point estimate',
        custom: true,
        schema_type: 'number',
        clause_names: ['cf[10016]', 'Story point estimate'],
      },
      { id: 'customfield_10026', name: 'Story Points', custom: true, schema_type: 'number', clause_names: ['cf[10026]', 'Story Points'] },
      { id: 'customfield_10020', name: 'Sprint', custom: true, schema_type: 'array', clause_names: ['cf[10020]', 'Sprint'] },
    ],
  },
  notes: [
    'Matching is fuzzy, so "story pts" still finds Story Points.',
    'The field list is cached for 10 minutes; set refresh after a new custom field is added.',
    'Custom fields can be queried in JQL as cf[NNNNN] when the name is ambiguous.',
  ],
  intents: [
    "what's the customfield number behind our estimation points?",
    'how do I filter on squad in JQL?',
    'which field tracks the iteration an issue is in?',
    'find the field for {topic} severity',
  ],
};

// ---------------------------------------------------------------- the server

export const jiraServer: ServerSpec = {
  server: 'jira',
  displayName: 'Jira',
  targetToolCount: publishedServer('jira').tools,
  targetTokensPerTool: publishedServer('jira').meanTokens,
  notes: [
    'All tools call the Jira REST API of the configured site as one account: an API token on Jira Cloud or a personal access token on Server/Data Center.',
    "Results reflect that account's permissions; issues in projects it cannot browse behave as if they did not exist.",
    'List tools page with start_at and a page size; a short page or is_last=true means there are no more results.',
    'Jira Cloud rate-limits each account; HTTP 429 responses are retried after the Retry-After delay up to three times before the error is returned.',
    'With READ_ONLY_MODE=true on the server every writing tool returns an error without contacting Jira.',
    'JIRA_PROJECTS_FILTER restricts every tool to a comma-separated list of project keys.',
    'Rich text such as descriptions, comments and worklog notes is written in Markdown and converted to Atlassian Document Format on Cloud or wiki markup on Server/Data Center.',
    "Timestamps are ISO 8601; a date-time without an offset is read in the time zone of the authenticated user's profile.",
    'Cloud identifies people by opaque account IDs while Server/Data Center uses usernames; emails and display names are resolved where the instance allows it.',
    'Custom fields are addressed by ID, such as customfield_10016; search_fields maps a display name to its ID.',
    'Issue and project keys are upper case; lowercase keys are normalised before the request is sent.',
    "Errors come back as text with the HTTP status, Jira's errorMessages and any per-field errors.",
    'Requests time out after 30 seconds; a timed-out write may still have been applied, so re-read the issue before retrying.',
    'Responses keep only the requested fields and drop empty values to save tokens.',
    'Team-managed projects use the parent field for epics and may name issue types differently from company-managed projects.',
    'Writes fire the usual Jira notifications, automation rules and webhooks, exactly as if the account had made the change in the Jira UI.',
  ],
  tools: [
    searchIssues,
    getIssue,
    getProjectIssues,
    createIssue,
    batchCreateIssues,
    updateIssue,
    deleteIssue,
    getTransitions,
    transitionIssue,
    assignIssue,
    addComment,
    editComment,
    getIssueChangelog,
    addWorklog,
    getWorklog,
    linkIssues,
    getLinkTypes,
    removeIssueLink,
    linkToEpic,
    createRemoteIssueLink,
    getIssueWatchers,
    addWatcher,
    getUserProfile,
    searchAssignableUsers,
    getAgileBoards,
    getBoardIssues,
    getSprintsFromBoard,
    getSprintIssues,
    createSprint,
    updateSprint,
    addIssuesToSprint,
    getProjectVersions,
    createVersion,
    listProjects,
    searchFields,
  ],
};
