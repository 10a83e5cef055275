/**
 * Small host and certificate catalogues for engine tests, built with makeCatalogue like the real
 * ones: every field type, nested `services` fields, a field read from a different document
 * path, non-fullText and non-aggregatable fields, and dynamic header fields.
 */
import type { FieldCatalogue, FieldDef } from '../../src/model/field-def.ts';
import { makeCatalogue, makeField, type FieldSpec } from '../../src/model/make-catalogue.ts';

const hostSpecs: FieldSpec[] = [
  { path: 'ip', type: 'ip' },
  { path: 'name', type: 'keyword' },
  { path: 'labels', type: 'keyword' },
  { path: 'dns.names', type: 'keyword' },
  { path: 'last_updated_at', type: 'date' },
  { path: 'location.country', type: 'keyword' },
  { path: 'location.city', type: 'keyword', fullText: false },
  { path: 'location.coordinates.latitude', type: 'float' },
  { path: 'autonomous_system.asn', type: 'int' },
  { path: 'autonomous_system.name', type: 'text' },
  { path: 'autonomous_system.description', type: 'text', fullText: false },
  { path: 'operating_system.product', type: 'keyword', aggregatable: false },
  { path: 'services.port', type: 'int' },
  { path: 'services.service_name', type: 'keyword' },
  { path: 'services.transport_protocol', type: 'keyword' },
  { path: 'services.banner', type: 'text' },
  { path: 'services.software.vendor', type: 'keyword' },
  { path: 'services.software.product', type: 'keyword' },
  { path: 'services.software.version', type: 'keyword' },
  { path: 'services.tls.version_selected', type: 'keyword' },
  { path: 'services.tls.certificates.leaf_data.subject_dn', type: 'text' },
  { path: 'services.truncated', type: 'bool' },
  { path: 'services.source_ip', type: 'ip' },
  { path: 'services.observed_at', type: 'date' },
  { path: 'services.latency', type: 'float' },
  { path: 'services.http.response.status_code', type: 'int' },
  {
    path: 'services.http.response.headers.server.headers',
    type: 'keyword',
    docPath: 'services.http.response.headers.Server',
  },
  { path: 'services.http.response.headers.x.dotted', type: 'keyword', docPath: 'services.http.response.headers.X.Dotted' },
];

const certificateSpecs: FieldSpec[] = [
  { path: 'fingerprint_sha256', type: 'keyword' },
  { path: 'names', type: 'keyword' },
  { path: 'parsed.subject_dn', type: 'text' },
  { path: 'parsed.issuer_dn', type: 'text' },
  { path: 'parsed.issuer.organization', type: 'keyword' },
  { path: 'parsed.subject.common_name', type: 'keyword' },
  { path: 'parsed.validity.start', type: 'date' },
  { path: 'parsed.validity.end', type: 'date' },
  { path: 'parsed.serial_number', type: 'keyword' },
  { path: 'parsed.version', type: 'int' },
  { path: 'added_at', type: 'date' },
  { path: 'revoked', type: 'bool' },
];

function headerName(lower: string): string {
  return lower.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('-');
}

/** `services.http.response.headers.<name>.headers` → document path with the header's canonical name. */
function dynamicHeader(lower: string): FieldDef | undefined {
  const m = /^services\.http\.response\.headers\.([a-z0-9_]+)\.headers$/.exec(lower);
  if (!m) return undefined;
  return makeField({ path: lower, type: 'keyword', docPath: `services.http.response.headers.${headerName(m[1])}` }, ['services']);
}

export const fixtureHosts: FieldCatalogue = makeCatalogue('hosts', hostSpecs, ['services'], dynamicHeader);
export const fixtureCertificates: FieldCatalogue = makeCatalogue('certificates', certificateSpecs, []);
export const fixtureCatalogues = { hosts: fixtureHosts, certificates: fixtureCertificates };
