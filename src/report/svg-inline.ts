/**
 * An SVG file's text, ready to sit inline in a page beside other charts: ids (clip paths,
 * gradients) get a per-chart prefix so two charts never share one, the fixed size becomes a
 * responsive one (the viewBox keeps the aspect), and the chart gets an accessible label.
 */
export function inlineSvg(svg: string, prefix: string, label: string): string {
  const ids = [...svg.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!);
  let out = svg.replace(/^<\?xml[^>]*>\s*/, '');
  for (const id of ids) {
    const safe = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out
      .replace(new RegExp(`(\\sid=")${safe}"`, 'g'), `$1${prefix}-${id}"`)
      .replace(new RegExp(`url\\(#${safe}\\)`, 'g'), `url(#${prefix}-${id})`)
      .replace(new RegExp(`(href=")#${safe}"`, 'g'), `$1#${prefix}-${id}"`);
  }
  const width = /^<svg\b[^>]*\swidth="([\d.]+)"/.exec(out)?.[1];
  const style = width ? ` style="max-width:${width}px"` : '';
  return out.replace(
    /^<svg\b/,
    `<svg role="img" aria-label="${label.replace(/"/g, '&quot;')}" preserveAspectRatio="xMinYMin meet"${style}`,
  );
}
