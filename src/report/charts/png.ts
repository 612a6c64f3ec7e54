import { spawnSync } from 'node:child_process';

/**
 * PNG from SVG with Debian's `rsvg-convert` (package librsvg2-bin), at 2× zoom. When the tool
 * is missing or fails, the reason is returned for the report to show; nothing is silent.
 * $RSVG_CONVERT names another converter binary.
 */
function rsvgConvert(): string {
  return process.env.RSVG_CONVERT || 'rsvg-convert';
}

export type PngAvailability = { available: true; version: string } | { available: false; reason: string };

const cache = new Map<string, PngAvailability>();

export function pngAvailability(): PngAvailability {
  const cmd = rsvgConvert();
  const known = cache.get(cmd);
  if (known) return known;
  let found: PngAvailability;
  const r = spawnSync(cmd, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    found = {
      available: false,
      reason:
        code === 'ENOENT'
          ? `${cmd} not found; install Debian's librsvg2-bin (apt-get install -y librsvg2-bin) to get PNG charts`
          : `${cmd} could not run: ${r.error.message}`,
    };
  } else if (r.status !== 0) {
    found = { available: false, reason: `${cmd} --version exited ${r.status}: ${r.stderr.trim()}` };
  } else {
    found = { available: true, version: r.stdout.trim() };
  }
  cache.set(cmd, found);
  return found;
}

/** Converts one SVG file; returns an error text, or undefined on success. */
export function svgToPng(svgPath: string, pngPath: string): string | undefined {
  const cmd = rsvgConvert();
  const r = spawnSync(cmd, ['-z', '2', '-b', 'white', svgPath, '-o', pngPath], { encoding: 'utf8', timeout: 60_000 });
  if (r.error) return `${cmd} failed on ${svgPath}: ${r.error.message}`;
  if (r.status !== 0) return `${cmd} exited ${r.status} on ${svgPath}: ${r.stderr.trim()}`;
  return undefined;
}
