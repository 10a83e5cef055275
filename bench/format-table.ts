/** Plain-text tables for the terminal. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function fmtMs(x: number | undefined): string {
  if (x === undefined || !Number.isFinite(x)) return '-';
  if (x < 1) return x.toFixed(3);
  if (x < 100) return x.toFixed(2);
  return x.toFixed(0);
}

export function fmtRatio(x: number | undefined): string {
  if (x === undefined || !Number.isFinite(x)) return '-';
  return x >= 100 ? `${x.toFixed(0)}x` : `${x.toFixed(1)}x`;
}
