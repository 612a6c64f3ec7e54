import type * as Vega from 'vega';
import type { LoggerInterface } from 'vega';
import type * as VegaLite from 'vega-lite';
import type { TopLevelSpec } from 'vega-lite';
import { importOptional, requireOptional } from '../../util/optional-package.ts';

export interface RenderedSvg {
  svg: string;
  /** Warnings from the Vega-Lite compiler and the Vega runtime (a clean chart has none). */
  warnings: string[];
}

/** Vega-Lite spec → SVG text, headless (no canvas, no browser). */
export async function renderSvg(spec: TopLevelSpec): Promise<RenderedSvg> {
  const warnings: string[] = [];
  const logger = collectingLogger(warnings);
  // Vega tags the data objects it ingests; compile a copy so the caller's spec stays plain JSON.
  // Optional dependencies, loaded when a chart is drawn: a light install still starts every command.
  const { parse, View } = requireOptional(await importOptional<typeof Vega>('vega'), 'vega', 'the charts');
  const { compile } = requireOptional(await importOptional<typeof VegaLite>('vega-lite'), 'vega-lite', 'the charts');
  const vega = compile(structuredClone(spec), { logger }).spec;
  const view = new View(parse(vega), { renderer: 'none', logger });
  try {
    return { svg: await view.toSVG(), warnings };
  } finally {
    view.finalize();
  }
}

function collectingLogger(warnings: string[]): LoggerInterface {
  let level = 2; // vega's Warn
  const logger: LoggerInterface = {
    level(l?: number) {
      if (l === undefined) return level;
      level = l;
      return logger;
    },
    error(...args: unknown[]) {
      warnings.push(`error: ${args.map(String).join(' ')}`);
      return logger;
    },
    warn(...args: unknown[]) {
      warnings.push(args.map(String).join(' '));
      return logger;
    },
    info() {
      return logger;
    },
    debug() {
      return logger;
    },
  };
  return logger;
}
