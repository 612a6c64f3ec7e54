import { parse, View, type LoggerInterface } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

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
