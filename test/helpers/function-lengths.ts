import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import ts from 'typescript';

/** A function-like node of a source file (a declaration, method, accessor, constructor, arrow or expression). */
export interface FunctionLength {
  /** Path with forward slashes, e.g. `src/bench/run.ts`. */
  file: string;
  /** Its own name, else the variable or property it is assigned to, else `<anonymous>`. */
  name: string;
  line: number;
  lines: number;
}

/** Every .ts file under `dir`, recursively. */
export function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return typeScriptFiles(p);
    return /\.m?ts$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

function nameOf(node: ts.SignatureDeclaration): string {
  if (node.name && (ts.isIdentifier(node.name) || ts.isPrivateIdentifier(node.name) || ts.isStringLiteral(node.name)))
    return node.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) &&
    ts.isIdentifier(parent.name)
  )
    return parent.name.text;
  return '<anonymous>';
}

/** Every function with a body in a file, with its length in lines (first to last, both counted), parsed by the TypeScript compiler. */
export function functionLengths(file: string, text = readFileSync(file, 'utf8')): FunctionLength[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const path = file.split(sep).join('/');
  const out: FunctionLength[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({ file: path, name: nameOf(node), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** How a failure names a function: where it starts, and how long it is. */
export const describeFunction = (f: FunctionLength) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`;
