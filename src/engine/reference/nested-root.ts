import type { FieldCatalogue } from '../../model/field-def.ts';

/**
 * The nested root a document path lives under (`services.port` → `services`), if any. Decided
 * by the document path, which is what values are read from, rather than by FieldDef.nested.
 */
export function nestedRootOf(catalogue: FieldCatalogue, docPath: string): string | undefined {
  return catalogue.nestedRoots.find((r) => docPath === r || docPath.startsWith(r + '.'));
}
