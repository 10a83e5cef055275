/**
 * The flattened view of a host document that the SQL baselines store next to (or instead of) the
 * document: typed scalars, a per-service list, helper lists, `field=value` terms and the
 * document's full-text terms. Full-text terms are computed with the same catalogue and tokenizer
 * Periscope uses, so a bare term means the same thing in every engine (the baselines get a
 * precomputed term set, like a tsvector, rather than scanning hundreds of JSON paths).
 */
import { orderKeyFor, type Doc } from '../src/engine/index.ts';
import { ipKey } from '../src/lib/ip.ts';
import type { FieldCatalogue, FieldDef } from '../src/model/field-def.ts';
import { tokenize } from '../src/model/tokenize.ts';
import { valuesOf } from '../src/model/values-of.ts';

export interface ServiceRow {
  readonly port: number;
  readonly service_name: string;
  readonly transport_protocol: string;
  readonly banner: string | null;
  /** Distinct `software.product` values of the service, as stored. */
  readonly products: string[];
}

export interface HostRow {
  readonly id: string;
  readonly order_key: string;
  readonly ip_key: string;
  readonly ip: string;
  readonly country: string | null;
  readonly country_code: string | null;
  readonly asn: number | null;
  readonly last_updated_at: string | null;
  readonly names: string[];
  readonly labels: string[];
  readonly services: ServiceRow[];
  readonly ports: number[];
  readonly service_names: string[];
  /** `field=value` strings for the term-array index (PostgreSQL). */
  readonly terms: string[];
  /** Full-text terms: tokens of text fields and lower-cased keyword values of full-text fields. */
  readonly ft: string[];
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export function makeRowBuilder(catalogue: FieldCatalogue): (id: string, doc: Doc) => HostRow {
  const fullText = new Map<string, FieldDef>(catalogue.all().filter((f) => f.fullText).map((f) => [f.docPath, f]));
  // One walk over the document instead of a lookup per catalogue path (there are hundreds).
  const walk = (value: unknown, path: string, ft: Set<string>): void => {
    if (Array.isArray(value)) {
      for (const v of value) walk(v, path, ft);
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k, ft);
    } else if (typeof value === 'string') {
      const f = fullText.get(path);
      if (!f) return;
      if (f.type === 'text') for (const t of tokenize(value)) ft.add(t);
      else ft.add(value.toLowerCase());
    }
  };
  return (id, doc) => {
    const location = (doc.location ?? {}) as Record<string, unknown>;
    const as = (doc.autonomous_system ?? {}) as Record<string, unknown>;
    const dns = (doc.dns ?? {}) as Record<string, unknown>;
    const rawServices = Array.isArray(doc.services) ? (doc.services as Record<string, unknown>[]) : [];
    const services: ServiceRow[] = rawServices.map((s) => ({
      port: Number(s.port),
      service_name: String(s.service_name ?? ''),
      transport_protocol: String(s.transport_protocol ?? ''),
      banner: str(s.banner),
      products: [...new Set(valuesOf(s, 'software.product').map(String))],
    }));
    const ip = String(doc.ip);
    const country = str(location.country);
    const asn = typeof as.asn === 'number' ? as.asn : null;
    const terms = new Set<string>();
    for (const s of services) {
      terms.add(`services.service_name=${s.service_name}`);
      terms.add(`services.port=${s.port}`);
      terms.add(`services.transport_protocol=${s.transport_protocol}`);
      for (const p of s.products) terms.add(`services.software.product=${p}`);
    }
    if (country !== null) terms.add(`location.country=${country}`);
    if (asn !== null) terms.add(`autonomous_system.asn=${asn}`);
    const ft = new Set<string>();
    walk(doc, '', ft);
    return {
      id,
      order_key: orderKeyFor('hosts', id),
      ip_key: ipKey(ip) ?? ip,
      ip,
      country,
      country_code: str(location.country_code),
      asn,
      last_updated_at: str(doc.last_updated_at),
      names: Array.isArray(dns.names) ? (dns.names as string[]) : [],
      labels: Array.isArray(doc.labels) ? (doc.labels as string[]) : [],
      services,
      ports: services.map((s) => s.port),
      service_names: services.map((s) => s.service_name),
      terms: [...terms],
      ft: [...ft],
    };
  };
}
