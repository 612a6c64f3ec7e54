import { readFileSync } from 'node:fs';

/** Every number in a Markdown file, thousands separators and signs dropped (47,312 → 47312; −3.2 → 3.2). */
export function numbersInDoc(file: string): Set<number> {
  const doc = readFileSync(file, 'utf8');
  return new Set([...doc.replaceAll(/(\d),(\d{3})/g, '$1$2').matchAll(/\d+(?:\.\d+)?/g)].map((m) => Number(m[0])));
}

/** Every number in a value, with its path (absolute: a sign is the doc's wording). */
export function numbersIn(value: unknown, path: string, out: [string, number][] = []): [string, number][] {
  if (typeof value === 'number') out.push([path, Math.abs(value)]);
  else if (Array.isArray(value)) value.forEach((v, i) => numbersIn(v, `${path}[${i}]`, out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) numbersIn(v, `${path}.${k}`, out);
  return out;
}
