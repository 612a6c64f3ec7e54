/**
 * Escaping of untrusted text (tool names, descriptions, server and catalog names, `$ref`
 * targets) for each text output: one function per kind, used wherever such text goes out.
 * HTML output escapes everything with html-escape.ts.
 */

/**
 * Characters a terminal or a viewer acts on instead of showing: C0 controls (ESC starts colour,
 * cursor and screen sequences, OSC 8 hyperlinks; BEL; CR rewrites a line), DEL, C1 controls
 * (U+009B is a one-character CSI) and the bidirectional overrides and isolates (which reorder
 * what is shown). Tab and newline are layout and stay, except in a one-line field.
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const CONTROL_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `\u001B`: visible, and a valid escape inside a JSON string (so JSON output stays JSON). */
function shown(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Terminal: every control character shown as `\u001B`-style text, so tool text can neither
 * colour nor clear the screen, ring, hyperlink, rewrite a line nor reorder it. `one-line` also
 * shows newlines and tabs (a table cell, a field of an error message). Everything the CLI
 * prints goes through it.
 */
export function terminalText(text: string, layout: 'lines' | 'one-line' = 'lines'): string {
  return text.replace(layout === 'lines' ? CONTROL : CONTROL_ONE_LINE, shown);
}

/**
 * Markdown: `<` that would open an HTML tag, comment or autolink (`<script`, `</`, `<!--`,
 * `<http:`) becomes `&lt;`, so a tool's text never reaches a Markdown viewer as HTML; control
 * characters are shown as in a terminal (a Markdown file is read there too). A `<` followed by
 * a space or digit (`rho < 0.3`) cannot open a tag and is left alone. Newlines stay (a note
 * may hold several lines); markdownLine and markdownCell are for one-line fields.
 */
export function escapeMarkdownText(text: string): string {
  return terminalText(text).replace(/<(?=[A-Za-z/!?])/g, '&lt;');
}

/** A one-line Markdown field (a title, a list item): escaped, newlines as spaces. */
export function markdownLine(text: string): string {
  return escapeMarkdownText(text).replace(/\r?\n/g, ' ');
}

/** A Markdown table cell, header or body: a one-line field whose pipes would end the cell. */
export function markdownCell(text: string): string {
  return markdownLine(text).replaceAll('|', '\\|');
}

/**
 * CSV: a text cell that a spreadsheet would read as a formula (starting with =, +, -, @, tab
 * or carriage return) is prefixed with a single quote, as OWASP recommends against CSV
 * injection. Numbers stay numbers (a negative difference is data, not a formula). Header and
 * body cells alike.
 */
export function neutraliseCsvCell<T>(value: T): T | string {
  return typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}
