import type { Resvg } from '@resvg/resvg-js';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../../util/files.ts';

/**
 * PNG from chart SVG, from npm alone: `@resvg/resvg-js` (its native binary ships in npm) with
 * the DejaVu Sans files in assets/fonts and no system fonts, so the text renders on a machine
 * without fonts and the bytes are the same on every machine. Debian's `rsvg-convert`
 * (librsvg2-bin; $RSVG_CONVERT names another binary) is the fallback when resvg cannot load.
 * Both draw at 2× on white. When neither works the reason is returned; nothing is silent.
 */
export type PngRendererId = 'resvg' | 'rsvg-convert';

export interface PngRenderer {
  id: PngRendererId;
  /** For the report notes and the manifest, e.g. "@resvg/resvg-js 2.6.2, fonts DejaVu Sans (assets/fonts)". */
  version: string;
  /** Writes `pngPath`; returns an error text, or undefined on success. */
  convert(svg: string, svgPath: string, pngPath: string): string | undefined;
}

export type PngAvailability = { available: true; renderer: PngRenderer } | { available: false; reason: string };

const ZOOM = 2;

/** assets/fonts, beside src/. Only these files are loaded: output must not depend on the machine's fonts. */
export const CHART_FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'].map((f) =>
  fileURLToPath(new URL(`../../../assets/fonts/${f}`, import.meta.url)),
);
const CHART_FONT_FAMILY = 'DejaVu Sans';

/** The first renderer that works: resvg, else rsvg-convert; `prefer` picks one (for tests and the fallback path). */
export function pngAvailability(prefer?: PngRendererId): PngAvailability {
  const order: PngRendererId[] = prefer ? [prefer] : ['resvg', 'rsvg-convert'];
  const reasons: string[] = [];
  for (const id of order) {
    const found = id === 'resvg' ? resvgRenderer() : rsvgConvertRenderer();
    if (typeof found !== 'string') return { available: true, renderer: found };
    reasons.push(found);
  }
  return { available: false, reason: reasons.join('; ') };
}

type ResvgModule = { Resvg: typeof Resvg };
let resvgCache: PngRenderer | string | undefined;

/** resvg with the shipped fonts; a string says why it is unusable (native binary missing, font file missing). */
function resvgRenderer(): PngRenderer | string {
  if (resvgCache) return resvgCache;
  const missingFont = CHART_FONT_FILES.find((f) => !existsSync(f));
  if (missingFont) return (resvgCache = `@resvg/resvg-js: font file ${missingFont} is missing`);
  let mod: ResvgModule;
  try {
    // Loaded on first use: a platform without its prebuilt binary falls back instead of failing at import.
    mod = createRequire(import.meta.url)('@resvg/resvg-js') as ResvgModule;
  } catch (err) {
    return (resvgCache = `@resvg/resvg-js could not load (${(err as Error).message.split('\n')[0]})`);
  }
  const pkg = createRequire(import.meta.url)('@resvg/resvg-js/package.json') as { version: string };
  resvgCache = {
    id: 'resvg',
    version: `@resvg/resvg-js ${pkg.version}, font ${CHART_FONT_FAMILY} from assets/fonts`,
    convert(svg, _svgPath, pngPath) {
      try {
        const png = new mod.Resvg(svg, {
          background: 'white',
          fitTo: { mode: 'zoom', value: ZOOM },
          font: {
            loadSystemFonts: false,
            fontFiles: CHART_FONT_FILES,
            defaultFontFamily: CHART_FONT_FAMILY,
            sansSerifFamily: CHART_FONT_FAMILY,
          },
        })
          .render()
          .asPng();
        writeFileAtomic(pngPath, png);
        return undefined;
      } catch (err) {
        return `@resvg/resvg-js failed on ${pngPath}: ${(err as Error).message}`;
      }
    },
  };
  return resvgCache;
}

function rsvgConvert(): string {
  return process.env.RSVG_CONVERT || 'rsvg-convert';
}

const rsvgCache = new Map<string, PngRenderer | string>();

function rsvgConvertRenderer(): PngRenderer | string {
  const cmd = rsvgConvert();
  const known = rsvgCache.get(cmd);
  if (known) return known;
  const r = spawnSync(cmd, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  let found: PngRenderer | string;
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    found = code === 'ENOENT' ? `${cmd} not found (Debian's librsvg2-bin)` : `${cmd} could not run: ${r.error.message}`;
  } else if (r.status !== 0) {
    found = `${cmd} --version exited ${r.status}: ${r.stderr.trim()}`;
  } else {
    found = {
      id: 'rsvg-convert',
      version: r.stdout.trim(),
      convert(_svg, svgPath, pngPath) {
        const c = spawnSync(cmd, ['-z', String(ZOOM), '-b', 'white', svgPath, '-o', pngPath], { encoding: 'utf8', timeout: 60_000 });
        if (c.error) return `${cmd} failed on ${svgPath}: ${c.error.message}`;
        if (c.status !== 0) return `${cmd} exited ${c.status} on ${svgPath}: ${c.stderr.trim()}`;
        return undefined;
      },
    };
  }
  rsvgCache.set(cmd, found);
  return found;
}
