/**
 * Builds a FieldCatalogue from a list of field definitions. The real catalogues
 * (catalogueFor) and test fixtures both use it, so lookup, prefixes and suggestions behave the same.
 */
import type { FieldCatalogue, FieldDef, FieldType, IndexName } from './field-def.ts';
import { levenshtein } from '../lib/levenshtein.ts';

export interface FieldSpec {
  path: string;
  type: FieldType;
  docPath?: string;
  fullText?: boolean;
  aggregatable?: boolean;
}

export function makeField(spec: FieldSpec, nestedRoots: readonly string[]): FieldDef {
  const root = nestedRoots.find((r) => spec.path.startsWith(r + '.'));
  const textual = spec.type === 'text' || spec.type === 'keyword';
  return {
    path: spec.path,
    type: spec.type,
    docPath: spec.docPath ?? spec.path,
    ...(root ? { nested: root as 'services' } : {}),
    fullText: spec.fullText ?? textual,
    aggregatable: spec.aggregatable ?? true,
  };
}

export function makeCatalogue(
  index: IndexName,
  specs: readonly FieldSpec[],
  nestedRoots: readonly string[],
  /** Resolves paths that are not listed (pattern fields such as HTTP headers). */
  dynamic?: (lowerPath: string) => FieldDef | undefined,
): FieldCatalogue {
  const fields = specs.map((s) => makeField(s, nestedRoots));
  const byPath = new Map<string, FieldDef>();
  const prefixes = new Set<string>(nestedRoots);
  for (const f of fields) {
    byPath.set(f.path.toLowerCase(), f);
    const parts = f.path.split('.');
    for (let i = 1; i < parts.length; i++) prefixes.add(parts.slice(0, i).join('.').toLowerCase());
  }
  return {
    index,
    nestedRoots,
    get(path) {
      const lower = path.toLowerCase();
      return byPath.get(lower) ?? dynamic?.(lower);
    },
    all() {
      return fields;
    },
    isPrefix(path) {
      return prefixes.has(path.toLowerCase());
    },
    suggest(path) {
      const lower = path.toLowerCase();
      let best: string | undefined;
      let bestScore = Infinity;
      for (const f of fields) {
        const p = f.path.toLowerCase();
        // Prefer a field whose last segments match (user forgot a prefix), then edit distance.
        const score = p.endsWith('.' + lower) ? 0.5 : levenshtein(lower, p);
        if (score < bestScore) {
          bestScore = score;
          best = f.path;
        }
      }
      return best !== undefined && bestScore <= Math.max(2, lower.length / 3) ? best : undefined;
    },
  };
}
