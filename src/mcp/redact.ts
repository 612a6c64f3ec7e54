import { SECRET_FLAG } from './spec.ts';

export const REDACTED = '<redacted>';

/**
 * Replaces every secret value in a text. Values shorter than 4 characters are still never
 * printed on their own (env values are printed by name only), but are not searched for in
 * free text: replacing every "1" or "on" would mangle the text and protect nothing.
 */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of [...secrets].filter((x) => x.length >= 4).sort((a, b) => b.length - a.length)) out = out.split(s).join(REDACTED);
  return out;
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
export function redactUrl(url: string): string {
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

function quoteArg(a: string): string {
  return /^[\w@%+=:,./<>-]+$/.test(a) ? a : `'${a.replaceAll("'", `'\\''`)}'`;
}
