/**
 * Small catalogues for the query tests (hosts-like and certificates-like), built the same way as
 * the real ones so lookup, prefixes and suggestions behave alike.
 */
import type { FieldCatalogue } from '../model/field-def.ts';
import { makeCatalogue } from '../model/make-catalogue.ts';

export const testHostCatalogue: FieldCatalogue = makeCatalogue(
  'hosts',
  [
    { path: 'ip', type: 'ip' },
    { path: 'name', type: 'keyword' },
    { path: 'services.port', type: 'int' },
    { path: 'services.service_name', type: 'keyword' },
    { path: 'services.banner', type: 'text' },
    { path: 'services.software.product', type: 'text' },
    { path: 'services.software.vendor', type: 'text' },
    { path: 'services.software.uniform_resource_identifier', type: 'keyword' },
    { path: 'services.tls.version_selected', type: 'keyword' },
    { path: 'services.truncated', type: 'bool' },
    { path: 'services.source_ip', type: 'ip' },
    { path: 'services.labels', type: 'keyword' },
    { path: 'services.certificate', type: 'keyword', fullText: false },
    { path: 'services.http.response.status_code', type: 'int' },
    { path: 'services.http.response.html_title', type: 'text' },
    { path: 'services.http.response.body', type: 'text' },
    { path: 'services.http.response.headers.location', type: 'text', docPath: 'services.http.response.headers.Location' },
    { path: 'services.kubernetes.version_info.git_version', type: 'keyword' },
    { path: 'location.country', type: 'keyword' },
    { path: 'location.country_code', type: 'keyword' },
    { path: 'location.city', type: 'text' },
    { path: 'location.coordinates.latitude', type: 'float' },
    { path: 'autonomous_system.asn', type: 'int' },
    { path: 'autonomous_system.name', type: 'text' },
    { path: 'dns.names', type: 'keyword' },
    { path: 'labels', type: 'keyword' },
    { path: 'last_updated_at', type: 'date' },
  ],
  ['services'],
);

export const testCertificateCatalogue: FieldCatalogue = makeCatalogue(
  'certificates',
  [
    { path: 'fingerprint_sha256', type: 'keyword' },
    { path: 'names', type: 'keyword' },
    { path: 'labels', type: 'keyword' },
    { path: 'parsed.issuer.organization', type: 'text' },
    { path: 'parsed.subject_dn', type: 'text' },
    { path: 'parsed.serial_number', type: 'keyword' },
    { path: 'parsed.validity_period.not_after', type: 'date' },
    { path: 'parsed.validity_period.not_before', type: 'date' },
    { path: 'parsed.extensions.subject_alt_name.dns_names', type: 'keyword' },
    { path: 'revocation.crl.revocation_time', type: 'date' },
    { path: 'revocation.crl.revoked', type: 'bool' },
  ],
  [],
);
