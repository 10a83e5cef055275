import type { IndexName } from '../model/field-def.ts';

/** Document paths a search hit carries when the request names no `fields` (contract §3.2, §3.4). */
export const DEFAULT_HIT_FIELDS: Readonly<Record<IndexName, readonly string[]>> = {
  hosts: [
    'ip',
    'name',
    'services.port',
    'services.service_name',
    'services.extended_service_name',
    'services.transport_protocol',
    'services.certificate',
    'location',
    'autonomous_system',
    'operating_system',
    'dns.reverse_dns.names',
    'labels',
    'last_updated_at',
  ],
  certificates: [
    'fingerprint_sha256',
    'names',
    'parsed.issuer_dn',
    'parsed.subject_dn',
    'parsed.validity_period.not_before',
    'parsed.validity_period.not_after',
    'labels',
  ],
};
