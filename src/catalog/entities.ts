/**
 * Entity values that fill {slot} placeholders in user messages. A task draws one value per
 * slot and keeps it for all its turns, so a conversation talks about the same repo, channel
 * or ticket throughout. Slot names are the only ones intents may use (a test checks it).
 */
export const ENTITIES = {
  owner: ['acme', 'octo-org', 'northwind', 'lumen-labs', 'kestrel-io'],
  repo: ['web-app', 'billing-service', 'mobile-client', 'infra-terraform', 'docs-site', 'data-pipeline'],
  branch: ['main', 'develop', 'release/2.4', 'feature/sso-login', 'fix/null-pointer-checkout', 'hotfix/rate-limit'],
  pr_number: ['482', '1193', '57', '2210', '318', '904'],
  issue_number: ['1021', '77', '3412', '560', '1988'],
  github_user: ['mchen', 'priya-k', 'jdoe', 'sam-ortiz', 'lena.w'],
  label: ['bug', 'good first issue', 'needs-triage', 'performance', 'security', 'ui'],
  path: [
    'src/config/settings.yaml',
    'docs/README.md',
    'reports/q3-summary.csv',
    'scripts/deploy.sh',
    'notes/meeting-2024-05-12.md',
    'data/customers.json',
  ],
  dir: ['src/components', 'logs', 'reports/2024', 'docs', 'tmp/exports', 'config'],
  file_ext: ['.py', '.ts', '.md', '.csv', '.log', '.yaml'],
  table: ['orders', 'customers', 'invoices', 'subscriptions', 'events', 'payments'],
  column: ['created_at', 'status', 'customer_id', 'total_amount', 'email', 'region'],
  db_schema: ['public', 'analytics', 'billing', 'staging'],
  channel: ['#support', '#eng-backend', '#incidents', '#product', '#sales-emea', '#random'],
  slack_user: ['@maria', '@tom.b', '@aisha', '@devon', '@kenji'],
  date: ['yesterday', 'last Friday', 'March 3rd', 'the 14th', 'this morning', 'two weeks ago'],
  date_range: ['last week', 'the past 30 days', 'Q3', 'since Monday', 'this sprint', 'January'],
  topic: ['the CSAT drop', 'the checkout outage', 'the pricing change', 'SSO login failures', 'the Android crash', 'the data export delay'],
  url: [
    'https://status.example.com/incidents',
    'https://docs.python.org/3/library/asyncio.html',
    'https://news.ycombinator.com',
    'https://example.com/pricing',
    'https://blog.example.org/2024/release-notes',
  ],
  domain: ['example.com', 'docs.python.org', 'developer.mozilla.org', 'stripe.com', 'kubernetes.io'],
  search_query: [
    'rust async runtime comparison',
    'GDPR data retention rules',
    'postgres vacuum tuning',
    'best practices for feature flags',
    'OAuth PKCE flow',
  ],
  jira_key: ['PAY-142', 'OPS-87', 'WEB-2291', 'SUP-530', 'MOB-66', 'DATA-314'],
  jira_project: ['PAY', 'OPS', 'WEB', 'SUP', 'MOB', 'DATA'],
  jira_user: ['Maria Lopez', 'Tom Baker', 'Aisha Khan', 'Devon Price', 'Kenji Sato'],
  jira_status: ['In Progress', 'In Review', 'Done', 'Blocked', 'To Do'],
  sprint: ['Sprint 42', 'Sprint 43', 'the current sprint', 'next sprint'],
  version: ['v2.4.0', 'v2.5.0', '1.9.3', 'release-2024.06'],
  number: ['5', '10', '3', '20'],
} as const;

export type EntitySlot = keyof typeof ENTITIES;

export function isEntitySlot(name: string): name is EntitySlot {
  return Object.prototype.hasOwnProperty.call(ENTITIES, name);
}

/** The {slot} names used in a template. */
export function slotsIn(template: string): string[] {
  return [...template.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!);
}
