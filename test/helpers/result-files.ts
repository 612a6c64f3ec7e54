import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'vitest';

/** Every file under `dir`, relative path → content, with what legitimately differs between runs (wall-clock figures) removed. */
export function resultFiles(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p), withoutTimings(relative(dir, p), readFileSync(p, 'utf8')));
    }
  };
  walk(dir);
  return out;
}

function withoutTimings(file: string, text: string): string {
  if (file === 'timings.json') return '';
  // A unit's record holds its wall seconds beside its result (what tables and files are made of, compared themselves).
  if (file.startsWith('units/')) return '';
  if (file === 'run.json') {
    const { startedAt, finishedAt, seconds, files, ...rest } = JSON.parse(text) as Record<string, unknown> & {
      files: { path: string; sha256: string }[];
    };
    expect([typeof startedAt, typeof finishedAt, typeof seconds]).toEqual(['string', 'string', 'number']);
    // Event files carry wall-clock latencies, so their hashes differ; every other file's hash must match.
    const hashes = files.map((f) => (f.path.startsWith('events/') ? { path: f.path } : f));
    return JSON.stringify({ ...rest, files: hashes });
  }
  // Tool Attention's events carry the router's wall-clock latency per turn.
  return text.replace(/"latency_ms":[0-9.e-]+/g, '"latency_ms":0');
}

/** A small subset of the committed tasks (the first `perKind` of each kind), written to `file`. */
export function smallTaskFile(file: string, perKind = 2): string {
  const lines = readFileSync('tasks/tasks.jsonl', 'utf8').trim().split('\n');
  const pick = (kind: string) => lines.filter((l) => (JSON.parse(l) as { kind: string }).kind === kind).slice(0, perKind);
  writeFileSync(file, [...pick('single'), ...pick('multi'), ...pick('long')].join('\n') + '\n');
  return file;
}

/** Every file of a live results folder by path, with what differs between runs masked: latencies and live-run.json's finishedAt. */
export function liveResultFiles(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else
        out.set(
          relative(dir, p),
          readFileSync(p, 'utf8')
            .replace(/"(latencyMs|latency)":\s*[0-9.e+-]+/g, '"$1":0')
            .replace(/"finishedAt": "[^"]+"/, '"finishedAt":0'),
        );
    }
  };
  walk(dir);
  return out;
}
