/** The fields of a CPE 2.3 URI (`cpe:2.3:a:vendor:product:version:...`); `*` and `-` read as absent. */
export interface CpeFields {
  readonly part?: string;
  readonly vendor?: string;
  readonly product?: string;
  readonly version?: string;
}

export function parseCpe(uri: string): CpeFields {
  // Escaped colons (`\:`) stay inside their field.
  const fields = uri.split(/(?<!\\):/);
  if (fields[0] !== 'cpe' || fields[1] !== '2.3') return {};
  const f = (i: number) => {
    const v = fields[i]?.replace(/\\(.)/g, '$1');
    return v && v !== '*' && v !== '-' ? v : undefined;
  };
  const out: Record<string, string> = {};
  for (const [key, i] of [['part', 2], ['vendor', 3], ['product', 4], ['version', 5]] as const) {
    const v = f(i);
    if (v !== undefined) out[key] = v;
  }
  return out;
}
