import { canonicalJson } from '../../store/canonical-json.ts';

export interface ServiceChanges {
  added: number;
  changed: number;
  removed: number;
}

type Json = Record<string, unknown>;

function byKey(doc: Json | undefined): Map<string, string> {
  const out = new Map<string, string>();
  const services = Array.isArray(doc?.services) ? (doc.services as Json[]) : [];
  for (const s of services) {
    // A new observation time alone is not a change of the service.
    const { observed_at: _t, ...rest } = s;
    out.set(`${String(s.port)}/${String(s.transport_protocol)}`, canonicalJson(rest));
  }
  return out;
}

/** Services added, changed (other than their observation time) and removed between two versions of a host. */
export function compareServices(before: Json | undefined, after: Json | undefined): ServiceChanges {
  const a = byKey(before);
  const b = byKey(after);
  const out: ServiceChanges = { added: 0, changed: 0, removed: 0 };
  for (const [k, v] of b) {
    const old = a.get(k);
    if (old === undefined) out.added++;
    else if (old !== v) out.changed++;
  }
  for (const k of a.keys()) if (!b.has(k)) out.removed++;
  return out;
}
