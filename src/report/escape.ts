/**
 * Escaping of table text (tool names, descriptions, server names: untrusted) for the text
 * formats. HTML output escapes everything with html-escape.ts.
 */

/**
 * Markdown: `<` that would open an HTML tag, comment or autolink (`<script`, `</`, `<!--`,
 * `<http:`) becomes `&lt;`, so a tool's text never reaches a Markdown viewer as HTML. A `<`
 * followed by a space or digit (`rho < 0.3`) cannot open a tag and is left alone.
 */
export function escapeMarkdownText(text: string): string {
  return text.replace(/<(?=[A-Za-z/!?])/g, '&lt;');
}

/**
 * CSV: a text cell that a spreadsheet would read as a formula (starting with =, +, -, @, tab
 * or carriage return) is prefixed with a single quote, as OWASP recommends against CSV
 * injection. Numbers stay numbers (a negative difference is data, not a formula).
 */
export function neutraliseCsvCell<T>(value: T): T | string {
  return typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}
