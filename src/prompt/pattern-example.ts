import { ownValue } from '../util/json.ts';

/**
 * A short string that matches a JSON Schema `pattern` (an ECMAScript regular expression), built
 * from the pattern itself: no randomness, so the same schema always gives the same example.
 * Covers what tool schemas use (literals, classes and ranges, `\d \w \s` and their negations,
 * groups, alternation, quantifiers, anchors); the caller checks the result with the pattern
 * and falls back when it does not match (a lookahead, a back-reference).
 */

type Node = { kind: 'text'; chars: string } | { kind: 'alt'; options: Node[][] } | { kind: 'repeat'; node: Node; min: number; max: number };

/** The shortest string the pattern's first alternatives spell, each optional repeat taken `extra` more times (up to its maximum). */
export function patternExample(pattern: string, extra = 0): string | null {
  let nodes: Node[][];
  try {
    nodes = new Parser(pattern).alternatives();
  } catch {
    return null;
  }
  const text = spell({ kind: 'alt', options: nodes }, extra);
  // JSON Schema patterns are ECMAScript regular expressions, which ajv runs with the `u` flag.
  try {
    return new RegExp(pattern, 'u').test(text) ? text : null;
  } catch {
    return null;
  }
}

function spell(node: Node, extra: number): string {
  if (node.kind === 'text') return node.chars;
  if (node.kind === 'alt') return (node.options[0] ?? []).map((n) => spell(n, extra)).join('');
  const times = Math.min(node.max, node.min + (node.max > node.min ? extra : 0));
  return spell(node.node, extra).repeat(times);
}

const CLASS_ESCAPES: Readonly<Record<string, RegExp>> = { d: /\d/, D: /\D/, w: /\w/, W: /\W/, s: /\s/, S: /\S/ };
const CONTROL_ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r' };

/** Characters tried, in order, for a class: readable ones first. */
const PREFERRED = 'aA0x_-.:/ ';

class Parser {
  private i = 0;
  constructor(private readonly src: string) {}

  alternatives(): Node[][] {
    const options: Node[][] = [this.sequence()];
    while (this.src[this.i] === '|') {
      this.i++;
      options.push(this.sequence());
    }
    return options;
  }

  private sequence(): Node[] {
    const out: Node[] = [];
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') {
      const atom = this.atom();
      out.push(this.quantified(atom));
    }
    return out;
  }

  private atom(): Node {
    const c = this.src[this.i++]!;
    if (c === '^' || c === '$') return { kind: 'text', chars: '' };
    if (c === '.') return { kind: 'text', chars: 'a' };
    if (c === '(') {
      let lookaround = false;
      if (this.src[this.i] === '?') {
        const mark = this.src.slice(this.i, this.i + 3);
        if (mark.startsWith('?:')) this.i += 2;
        else if (mark.startsWith('?=') || mark.startsWith('?!') || mark.startsWith('?<=') || mark.startsWith('?<!')) {
          lookaround = true;
          this.i += mark.startsWith('?<') ? 3 : 2;
        } else if (mark.startsWith('?<')) this.i = this.src.indexOf('>', this.i) + 1;
      }
      const options = this.alternatives();
      if (this.src[this.i++] !== ')') throw new Error('unclosed group');
      return lookaround ? { kind: 'text', chars: '' } : { kind: 'alt', options };
    }
    if (c === '[') return { kind: 'text', chars: this.classChar() };
    if (c === '\\') return { kind: 'text', chars: this.escape() };
    return { kind: 'text', chars: c };
  }

  private escape(): string {
    const e = this.src[this.i++] ?? '';
    const known: Record<string, string> = { d: '0', D: 'a', w: 'a', W: '-', s: ' ', S: 'a', n: '\n', t: '\t', r: '\r', b: '', B: '' };
    if (Object.hasOwn(known, e)) return known[e]!;
    if (/[1-9]/.test(e)) return '';
    if (e === 'u' && /^[0-9a-fA-F]{4}/.test(this.src.slice(this.i))) {
      this.i += 4;
      return String.fromCharCode(parseInt(this.src.slice(this.i - 4, this.i), 16));
    }
    return e;
  }

  /** One character a `[...]` class accepts (the parser stands after the `[`). */
  private classChar(): string {
    const negated = this.src[this.i] === '^';
    if (negated) this.i++;
    const accepts: ((ch: string) => boolean)[] = [];
    let first = true;
    while (this.i < this.src.length && (this.src[this.i] !== ']' || first)) {
      first = false;
      let lo = this.src[this.i++]!;
      if (lo === '\\') {
        const e = this.src[this.i++]!;
        const cls = ownValue(CLASS_ESCAPES, e);
        if (cls) {
          accepts.push((ch) => cls.test(ch));
          continue;
        }
        lo = ownValue(CONTROL_ESCAPES, e) ?? e;
      }
      if (this.src[this.i] === '-' && this.src[this.i + 1] !== ']' && this.i + 1 < this.src.length) {
        this.i++;
        let hi = this.src[this.i++]!;
        if (hi === '\\') hi = this.src[this.i++]!;
        const [a, b] = [lo.charCodeAt(0), hi.charCodeAt(0)];
        accepts.push((ch) => ch.charCodeAt(0) >= a && ch.charCodeAt(0) <= b);
      } else {
        const literal = lo;
        accepts.push((ch) => ch === literal);
      }
    }
    if (this.src[this.i++] !== ']') throw new Error('unclosed class');
    const fits = (ch: string) => accepts.some((f) => f(ch)) !== negated;
    for (const ch of PREFERRED) if (fits(ch)) return ch;
    for (let code = 33; code < 127; code++) if (fits(String.fromCharCode(code))) return String.fromCharCode(code);
    throw new Error('empty class');
  }

  private quantified(node: Node): Node {
    const q = this.src[this.i];
    let min = 1;
    let max = 1;
    if (q === '*' || q === '+' || q === '?') {
      this.i++;
      [min, max] = q === '*' ? [0, Infinity] : q === '+' ? [1, Infinity] : [0, 1];
    } else if (q === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
      if (!m) return node;
      this.i += m[0].length;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] ? Number(m[3]) : Infinity;
    } else return node;
    if (this.src[this.i] === '?' || this.src[this.i] === '+') this.i++;
    return { kind: 'repeat', node, min, max };
  }
}
