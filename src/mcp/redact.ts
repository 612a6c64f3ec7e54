/**
 * The one home of redaction, for capture, live mode and every error path: secret values (env
 * and header values, URL credentials and query values, API keys) are replaced wherever they
 * appear in text we print or write, including text a server or an endpoint sent back.
 */
export const REDACTED = '<redacted>';

/**
 * Secrets shorter than this are never printed on their own (env values are printed by name
 * only) but are not searched for in free text: replacing every "1" or "on" would mangle the
 * text and protect nothing.
 */
const MIN_SEARCHED_LENGTH = 4;

/**
 * In data a server sent (tool descriptions, instructions), only values of 8+ characters are
 * searched for: shorter ones (`true`, `prod`) match ordinary words, and replacing them would
 * change the token counts the dump is measured by.
 */
export const MIN_SERVER_DATA_LENGTH = 8;

/** Flags whose value is a credential: `--token x`, `--api-key=x`; `-p x` is not matched. */
export const SECRET_FLAG = /(token|secret|passw(or)?d|passwd|api[-_]?key|access[-_]?key|auth|credential|bearer|private[-_]?key|session)/i;

/** Nesting below this depth is not walked (and not kept): a saved record stays JSON.stringify-safe. */
const MAX_WALK_DEPTH = 256;

export interface RedactOptions {
  /** Shortest value searched for (default 4). */
  minLength?: number;
  /** Counts the values replaced. */
  counter?: { n: number };
}

/** Replaces every secret value in a text. */
export function redactText(text: string, secrets: readonly string[], options: RedactOptions = {}): string {
  let out = text;
  for (const s of searched(secrets, options.minLength)) {
    const parts = out.split(s);
    if (options.counter) options.counter.n += parts.length - 1;
    out = parts.join(REDACTED);
  }
  return out;
}

/**
 * A JSON-like value with every secret replaced in its strings and keys. Nesting deeper than
 * MAX_WALK_DEPTH is replaced by a note, so a record built from a hostile response can always be
 * serialised.
 */
export function redactJson<T>(value: T, secrets: readonly string[], options: RedactOptions = {}): T {
  const list = searched(secrets, options.minLength);
  const text = (s: string) => (list.length ? redactText(s, list, { minLength: 0, counter: options.counter }) : s);
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return text(v);
    if (typeof v !== 'object' || v === null) return v;
    if (depth >= MAX_WALK_DEPTH) return `(nested deeper than ${MAX_WALK_DEPTH} levels: not kept)`;
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [text(k), walk(x, depth + 1)]));
  };
  return walk(value, 0) as T;
}

function searched(secrets: readonly string[], minLength = MIN_SEARCHED_LENGTH): string[] {
  return [...new Set(secrets)].filter((x) => x.length >= Math.max(1, minLength)).sort((a, b) => b.length - a.length);
}

/** A command line for provenance and messages: secret values and the value after a secret-looking flag redacted. */
export function redactCommand(command: string, args: readonly string[], secrets: readonly string[]): string {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const eq = /^(-{1,2}[^=\s]+)=(.+)$/.exec(a);
    if (eq && SECRET_FLAG.test(eq[1]!)) {
      out.push(`${eq[1]}=${REDACTED}`);
      continue;
    }
    out.push(redactText(a, secrets));
    if (/^-{1,2}[A-Za-z]/.test(a) && !a.includes('=') && SECRET_FLAG.test(a) && i + 1 < args.length && !args[i + 1]!.startsWith('-')) {
      out.push(REDACTED);
      i++;
    }
  }
  return [redactText(command, secrets), ...out].map(quoteArg).join(' ');
}

/** A URL without credentials or query values. */
export function redactUrl(url: string | URL): string {
  try {
    const u = new URL(url);
    if (u.username) u.username = 'redacted';
    if (u.password) u.password = 'redacted';
    for (const k of [...new Set(u.searchParams.keys())]) u.searchParams.set(k, 'redacted');
    return u.toString();
  } catch {
    return '(invalid URL)';
  }
}

/** The secret parts of a URL: user name, password and every query value (as written and decoded). */
export function urlSecrets(url: string): string[] {
  const out = new Set<string>();
  try {
    const u = new URL(url);
    for (const part of [u.username, u.password]) {
      if (!part) continue;
      out.add(part);
      out.add(safeDecode(part));
    }
    for (const v of u.searchParams.values()) if (v) out.add(v);
    // The raw query values too: a value with %-escapes appears undecoded in the URL text.
    for (const pair of u.search.slice(1).split('&')) {
      const raw = pair.slice(pair.indexOf('=') + 1);
      if (pair.includes('=') && raw) out.add(raw);
    }
  } catch {
    /* an invalid URL is reported where it is used */
  }
  return [...out];
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function quoteArg(a: string): string {
  return /^[\w@%+=:,./<>-]+$/.test(a) ? a : `'${a.replaceAll("'", `'\\''`)}'`;
}
