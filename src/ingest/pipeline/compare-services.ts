import { canonicalEqual } from '../../store/canonical-json.ts';

export interface ServiceChanges {
  added: number;
  changed: number;
  removed: number;
}

type Json = Record<string, unknown>;

function byKey(doc: Json | undefined): Map<string, Json> {
  const out = new Map<string, Json>();
  const services = Array.isArray(doc?.services) ? (doc.services as Json[]) : [];
  for (const s of services) out.set(`${String(s.port)}/${String(s.transport_protocol)}`, s);
  return out;
}

/** A new observation time alone is not a change of the service. */
function sameService(a: Json, b: Json): boolean {
  if (a === b) return true;
  const { observed_at: _a, ...ra } = a;
  const { observed_at: _b, ...rb } = b;
  return canonicalEqual(ra, rb);
}

/** Services added, changed (other than their observation time) and removed between two versions of a host. */
export function compareServices(before: Json | undefined, after: Json | undefined): ServiceChanges {
  const out: ServiceChanges = { added: 0, changed: 0, removed: 0 };
  if (before === after) return out;
  const a = byKey(before);
  const b = byKey(after);
  for (const [k, s] of b) {
    const old = a.get(k);
    if (old === undefined) out.added++;
    else if (!sameService(old, s)) out.changed++;
  }
  for (const k of a.keys()) if (!b.has(k)) out.removed++;
  return out;
}
