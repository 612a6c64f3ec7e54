/**
 * A general developer-vocabulary normaliser for lexical retrieval: the abbreviations, shell
 * habits and chat shorthand people type to an assistant, mapped to the words tool descriptions
 * use. Written from general knowledge of developer tooling (and the words MCP tools use for
 * the same things), never from the evaluated query sets. Applied to both sides, so a tool
 * description saying "PR" matches a query saying "pull request" and vice versa.
 */
export const ABBREVIATIONS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    // version control and code hosting
    pr: ['pull', 'request'],
    prs: ['pull', 'request'],
    mr: ['merge', 'request'],
    repo: ['repository'],
    repos: ['repository'],
    org: ['organization'],
    orgs: ['organization'],
    gh: ['github'],
    ci: ['workflow', 'action', 'run'],
    cd: ['deploy'],
    diff: ['diff', 'change'],
    blame: ['blame', 'commit', 'author'],
    squash: ['merge'],
    rebase: ['merge', 'branch'],
    ship: ['merge', 'deploy', 'release'],
    lgtm: ['approve', 'review'],
    // shell habits
    ls: ['list', 'directory'],
    ll: ['list', 'directory'],
    dir: ['directory'],
    dirs: ['directory'],
    folder: ['directory'],
    folders: ['directory'],
    mkdir: ['create', 'directory'],
    cat: ['read', 'file', 'content'],
    head: ['read', 'file', 'first', 'line'],
    tail: ['read', 'file', 'last', 'line'],
    less: ['read', 'file'],
    grep: ['search'],
    rg: ['search'],
    find: ['search', 'find'],
    mv: ['move', 'rename'],
    cp: ['copy'],
    rm: ['delete', 'remove'],
    touch: ['create', 'file'],
    stat: ['file', 'info', 'metadata'],
    tree: ['directory', 'tree'],
    wget: ['fetch', 'download', 'url'],
    curl: ['fetch', 'url', 'request'],
    // chat and tickets
    msg: ['message'],
    msgs: ['message'],
    dm: ['direct', 'message'],
    dms: ['direct', 'message'],
    ping: ['send', 'post', 'message', 'notify'],
    chan: ['channel'],
    thread: ['thread', 'reply'],
    emoji: ['reaction', 'emoji'],
    react: ['reaction'],
    ticket: ['issue'],
    tickets: ['issue'],
    bug: ['issue', 'bug'],
    bugs: ['issue', 'bug'],
    epic: ['epic', 'issue'],
    sprint: ['sprint', 'board'],
    assignee: ['assign', 'user'],
    // data and web
    db: ['database'],
    sql: ['sql', 'query', 'database'],
    tbl: ['table'],
    schema: ['schema', 'table'],
    migration: ['migration', 'schema'],
    env: ['environment'],
    cfg: ['configuration'],
    config: ['configuration'],
    conf: ['configuration'],
    creds: ['credential', 'key'],
    docs: ['documentation', 'doc'],
    doc: ['documentation', 'document'],
    url: ['url', 'page', 'web'],
    urls: ['url', 'page', 'web'],
    site: ['website', 'page', 'url'],
    webpage: ['web', 'page'],
    scrape: ['scrape', 'fetch', 'page'],
    crawl: ['crawl', 'page'],
    info: ['information', 'detail'],
    pls: [],
    plz: [],
    thx: [],
    w: ['with'],
    re: ['about'],
  }),
);

/**
 * Entity cues: shapes of values in a message (a URL, a path, a ticket key, an `owner/repo`,
 * a `#channel`, an `@user`) mean a kind of argument, and tools name those arguments
 * (`url`, `path`, `issue key`, `owner`/`repo`, `channel`, `user`). Each cue adds its words to
 * the query side only (tool texts already carry the argument names).
 */
const ENTITY_CUES: readonly { pattern: RegExp; words: readonly string[] }[] = [
  { pattern: /\bhttps?:\/\/\S+/i, words: ['url', 'page', 'web'] },
  { pattern: /(^|\s)(~\/|\.{1,2}\/|\/)[\w.-]+(\/[\w.*-]+)*/, words: ['file', 'path', 'directory'] },
  { pattern: /\b[\w-]+\.(ts|js|py|md|json|ya?ml|txt|log|out|csv|go|rs|java|toml|sh|env|sql|html|css)\b/i, words: ['file', 'path'] },
  { pattern: /\b[A-Z][A-Z0-9]{1,9}-\d+\b/, words: ['issue', 'key'] },
  { pattern: /(^|\s)[\w.-]+\/[\w.-]+(\s|$|[,;:?!])/, words: ['owner', 'repository'] },
  { pattern: /(^|\s)#[a-z][\w-]*/, words: ['channel'] },
  { pattern: /(^|\s)#\d+\b/, words: ['number', 'pull', 'request', 'issue'] },
  { pattern: /(^|\s)@[\w.-]+/, words: ['user'] },
  { pattern: /\b(select|insert|update|delete)\b[^.]*\b(from|into|set|where)\b/i, words: ['sql', 'query', 'execute'] },
];

/** The extra words an entity-cue scan of a message yields, in cue order (may repeat). */
export function entityCueWords(text: string): string[] {
  return ENTITY_CUES.flatMap((cue) => (cue.pattern.test(text) ? cue.words : []));
}
