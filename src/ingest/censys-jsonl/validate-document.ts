/**
 * Checks one Censys-schema document before it is stored: a wrong shape is rejected with a reason
 * instead of being indexed half-way. Normalises the id fields (canonical IP text, lower-case
 * virtual-host name and fingerprint).
 */
import type { IndexName } from '../../model/field-def.ts';
import { certificateIdOf, hostIdOf } from '../../search/document-ids.ts';
import { parseTimestamp, isoTime } from '../../lib/time.ts';

export type Validated = { ok: true; id: string; doc: Record<string, unknown>; observedAt: string } | { ok: false; reason: string };

function observedAt(doc: Record<string, unknown>, keys: readonly string[], fallback: Date): string {
  for (const k of keys) {
    const v = doc[k];
    if (typeof v === 'string') {
      const t = parseTimestamp(v);
      if (t !== undefined) return isoTime(t);
    }
  }
  return fallback.toISOString();
}

function checkServices(services: unknown): string | undefined {
  if (services === undefined) return undefined;
  if (!Array.isArray(services)) return "'services' must be an array";
  for (let i = 0; i < services.length; i++) {
    const s = services[i] as Record<string, unknown>;
    if (s === null || typeof s !== 'object' || Array.isArray(s)) return `services[${i}] must be an object`;
    if (!Number.isInteger(s.port) || (s.port as number) < 0 || (s.port as number) > 65535) return `services[${i}].port must be an integer from 0 to 65535`;
    for (const k of ['service_name', 'extended_service_name', 'transport_protocol', 'banner', 'certificate'] as const) {
      if (s[k] !== undefined && typeof s[k] !== 'string') return `services[${i}].${k} must be a string`;
    }
  }
  return undefined;
}

export function validateDocument(index: IndexName, value: unknown, now: Date): Validated {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, reason: 'not a JSON object' };
  const doc = { ...(value as Record<string, unknown>) };
  if (index === 'hosts') {
    const id = hostIdOf(doc);
    if (!id.ok) return { ok: false, reason: id.problem.message === 'Invalid ip address' ? `invalid ip ${JSON.stringify(doc.ip)}` : id.problem.message };
    const bad = checkServices(doc.services);
    if (bad) return { ok: false, reason: bad };
    doc.ip = id.value.ip;
    if (id.value.name) doc.name = id.value.name;
    return { ok: true, id: id.value.id, doc, observedAt: observedAt(doc, ['last_updated_at'], now) };
  }
  const id = certificateIdOf(doc);
  if (!id.ok) return { ok: false, reason: id.problem.message };
  doc.fingerprint_sha256 = id.value;
  if (doc.names !== undefined && !(Array.isArray(doc.names) && doc.names.every((n) => typeof n === 'string'))) {
    return { ok: false, reason: "'names' must be an array of strings" };
  }
  return { ok: true, id: id.value, doc, observedAt: observedAt(doc, ['modified_at', 'added_at', 'validated_at'], now) };
}
