/**
 * Every searchable field of the certificates index (contract §3.3 and
 * reference/certificates-fields.txt), with its type. The hosts catalogue embeds these same specs
 * under `services.tls.certificate.`, so a certificate field has one type in both indexes.
 */
import type { FieldType } from './field-def.ts';
import type { FieldSpec } from './make-catalogue.ts';

/**
 * A field type plus the three indexing shapes that recur often enough to deserve a name:
 * - hex:  keyword that nobody types as a bare word (hashes, fingerprints, key ids): not full-text.
 * - blob: like hex, and too large or too unique to bucket (key material, raw bytes): not aggregatable.
 * - body: free text too large to bucket (banners, HTTP bodies): tokenised, not aggregatable.
 */
export type FieldKind = FieldType | 'hex' | 'blob' | 'body';

export function specOf(path: string, kind: FieldKind): FieldSpec {
  switch (kind) {
    case 'hex':
      return { path, type: 'keyword', fullText: false };
    case 'blob':
      return { path, type: 'keyword', fullText: false, aggregatable: false };
    case 'body':
      return { path, type: 'text', aggregatable: false };
    default:
      return { path, type: kind };
  }
}

/** Specs for `entries` (relative, possibly dotted, paths) under `prefix`, in insertion order. */
export function fieldGroup(prefix: string, entries: Readonly<Record<string, FieldKind>>): FieldSpec[] {
  const base = prefix === '' ? '' : prefix + '.';
  return Object.entries(entries).map(([rel, kind]) => specOf(base + rel, kind));
}

/**
 * The components of an X.509 distinguished name (subject, issuer, directory names). Codes and
 * identifiers are keywords; names people search word by word are text.
 */
export function distinguishedNameFields(prefix: string): FieldSpec[] {
  return fieldGroup(prefix, {
    common_name: 'text',
    country: 'keyword',
    domain_component: 'keyword',
    email_address: 'keyword',
    given_name: 'text',
    jurisdiction_country: 'keyword',
    jurisdiction_locality: 'text',
    jurisdiction_province: 'text',
    locality: 'text',
    organization: 'text',
    organization_id: 'keyword',
    organizational_unit: 'text',
    postal_code: 'keyword',
    province: 'text',
    serial_number: 'keyword',
    street_address: 'text',
    surname: 'text',
  });
}

function generalNames(prefix: string): FieldSpec[] {
  return [
    ...fieldGroup(prefix, {
      dns_names: 'keyword',
      email_addresses: 'keyword',
      ip_addresses: 'ip',
      registered_ids: 'keyword',
      uniform_resource_identifiers: 'keyword',
    }),
    ...distinguishedNameFields(prefix + '.directory_names'),
    ...fieldGroup(prefix, {
      'edi_party_names.name_assigner': 'text',
      'edi_party_names.party_name': 'text',
      'other_names.id': 'keyword',
      'other_names.value': 'blob',
    }),
  ];
}

function nameConstraints(prefix: string): FieldSpec[] {
  const out: FieldSpec[] = [specOf(prefix + '.critical', 'bool')];
  for (const side of ['permitted', 'excluded']) {
    out.push(
      ...fieldGroup(prefix, {
        [`${side}_names`]: 'keyword',
        [`${side}_email_addresses`]: 'keyword',
        [`${side}_ip_addresses.begin`]: 'ip',
        [`${side}_ip_addresses.end`]: 'ip',
        [`${side}_ip_addresses.cidr`]: 'keyword',
        [`${side}_ip_addresses.mask`]: 'keyword',
        [`${side}_registered_ids`]: 'keyword',
        [`${side}_uris`]: 'keyword',
      }),
      ...distinguishedNameFields(`${prefix}.${side}_directory_names`),
      ...fieldGroup(prefix, {
        [`${side}_edi_party_names.name_assigner`]: 'text',
        [`${side}_edi_party_names.party_name`]: 'text',
      }),
    );
  }
  return out;
}

const EXTENDED_KEY_USAGES = [
  'any',
  'apple_code_signing',
  'apple_code_signing_development',
  'apple_code_signing_third_party',
  'apple_crypto_development_env',
  'apple_crypto_env',
  'apple_crypto_maintenance_env',
  'apple_crypto_production_env',
  'apple_crypto_qos',
  'apple_crypto_test_env',
  'apple_crypto_tier0_qos',
  'apple_crypto_tier1_qos',
  'apple_crypto_tier2_qos',
  'apple_crypto_tier3_qos',
  'apple_ichat_encryption',
  'apple_ichat_signing',
  'apple_resource_signing',
  'apple_software_update_signing',
  'apple_system_identity',
  'client_auth',
  'code_signing',
  'dvcs',
  'eap_over_lan',
  'eap_over_ppp',
  'email_protection',
  'ipsec_end_system',
  'ipsec_intermediate_system_usage',
  'ipsec_tunnel',
  'ipsec_user',
  'microsoft_ca_exchange',
  'microsoft_cert_trust_list_signing',
  'microsoft_csp_signature',
  'microsoft_document_signing',
  'microsoft_drm',
  'microsoft_drm_individualization',
  'microsoft_efs_recovery',
  'microsoft_embedded_nt_crypto',
  'microsoft_encrypted_file_system',
  'microsoft_enrollment_agent',
  'microsoft_kernel_mode_code_signing',
  'microsoft_key_recovery_21',
  'microsoft_key_recovery_3',
  'microsoft_license_server',
  'microsoft_licenses',
  'microsoft_lifetime_signing',
  'microsoft_mobile_device_software',
  'microsoft_nt5_crypto',
  'microsoft_oem_whql_crypto',
  'microsoft_qualified_subordinate',
  'microsoft_root_list_signer',
  'microsoft_server_gated_crypto',
  'microsoft_sgc_serialized',
  'microsoft_smart_display',
  'microsoft_smartcard_logon',
  'microsoft_system_health',
  'microsoft_system_health_loophole',
  'microsoft_timestamp_signing',
  'microsoft_whql_crypto',
  'netscape_server_gated_crypto',
  'ocsp_signing',
  'sbgp_cert_aa_service_auth',
  'server_auth',
  'time_stamping',
] as const;

const KEY_USAGES = [
  'certificate_sign',
  'content_commitment',
  'crl_sign',
  'data_encipherment',
  'decipher_only',
  'digital_signature',
  'encipher_only',
  'key_agreement',
  'key_encipherment',
] as const;

function extensions(prefix: string): FieldSpec[] {
  return [
    ...fieldGroup(prefix, {
      'authority_info_access.issuer_urls': 'keyword',
      'authority_info_access.ocsp_urls': 'keyword',
      authority_key_id: 'hex',
      subject_key_id: 'hex',
      'basic_constraints.is_ca': 'bool',
      'basic_constraints.max_path_len': 'int',
      'cabf_organization_id.country': 'keyword',
      'cabf_organization_id.reference': 'keyword',
      'cabf_organization_id.scheme': 'keyword',
      'cabf_organization_id.state': 'keyword',
      'certificate_policies.id': 'keyword',
      'certificate_policies.cps': 'keyword',
      'certificate_policies.user_notice.explicit_text': 'text',
      'certificate_policies.user_notice.notice_reference.notice_numbers': 'int',
      'certificate_policies.user_notice.notice_reference.organization': 'text',
      crl_distribution_points: 'keyword',
      ct_poison: 'bool',
      'signed_certificate_timestamps.version': 'int',
      'signed_certificate_timestamps.log_id': 'hex',
      'signed_certificate_timestamps.timestamp': 'date',
      'signed_certificate_timestamps.signature.hash_algorithm': 'keyword',
      'signed_certificate_timestamps.signature.signature_algorithm': 'keyword',
      'signed_certificate_timestamps.signature.signature': 'blob',
    }),
    ...EXTENDED_KEY_USAGES.map((u) => specOf(`${prefix}.extended_key_usage.${u}`, 'bool')),
    specOf(`${prefix}.extended_key_usage.unknown`, 'keyword'),
    ...KEY_USAGES.map((u) => specOf(`${prefix}.key_usage.${u}`, 'bool')),
    specOf(`${prefix}.key_usage.value`, 'int'),
    ...generalNames(`${prefix}.subject_alt_name`),
    ...generalNames(`${prefix}.issuer_alt_name`),
    ...nameConstraints(`${prefix}.name_constraints`),
    ...fieldGroup(prefix, {
      'qc_statements.ids': 'keyword',
      'qc_statements.parsed.etsi_compliance': 'bool',
      'qc_statements.parsed.sscd': 'bool',
      'qc_statements.parsed.retention_period': 'int',
      'qc_statements.parsed.legislation.country_codes': 'keyword',
      'qc_statements.parsed.limit.amount': 'int',
      'qc_statements.parsed.limit.currency': 'keyword',
      'qc_statements.parsed.limit.currency_number': 'int',
      'qc_statements.parsed.limit.exponent': 'int',
      'qc_statements.parsed.pds_locations.language': 'keyword',
      'qc_statements.parsed.pds_locations.url': 'keyword',
      'qc_statements.parsed.types.ids': 'keyword',
      'tor_service_descriptors.algorithm_name': 'keyword',
      'tor_service_descriptors.hash': 'hex',
      'tor_service_descriptors.hash_bits': 'int',
      'tor_service_descriptors.onion': 'keyword',
    }),
  ];
}

function validation(prefix: string): FieldSpec[] {
  return ['nss', 'microsoft', 'apple', 'chrome'].flatMap((store) =>
    fieldGroup(`${prefix}.${store}`, {
      is_valid: 'bool',
      ever_valid: 'bool',
      has_trusted_path: 'bool',
      had_trusted_path: 'bool',
      in_revocation_set: 'bool',
      parents: 'hex',
      'chains.sha256fp': 'hex',
      type: 'keyword',
      // Periscope's own: why a certificate is not valid (expired, unknown issuer, ...).
      reason: 'text',
    }),
  );
}

function revocation(prefix: string): FieldSpec[] {
  return ['ocsp', 'crl'].flatMap((source) =>
    fieldGroup(`${prefix}.${source}`, {
      revoked: 'bool',
      reason: 'keyword',
      next_update: 'date',
      revocation_time: 'date',
    }),
  );
}

export const certificateFields: readonly FieldSpec[] = [
  ...fieldGroup('', {
    fingerprint_sha256: 'hex',
    fingerprint_sha1: 'hex',
    fingerprint_md5: 'hex',
    tbs_fingerprint_sha256: 'hex',
    tbs_no_ct_fingerprint_sha256: 'hex',
    spki_fingerprint_sha256: 'hex',
    parent_spki_fingerprint_sha256: 'hex',
    spki_subject_fingerprint_sha256: 'hex',
    parent_spki_subject_fingerprint_sha256: 'hex',
    names: 'keyword',
    validation_level: 'keyword',
    labels: 'keyword',
    tags: 'keyword',
    precert: 'bool',
    revoked: 'bool',
    ever_seen_in_scan: 'bool',
    raw: 'blob',
    added_at: 'date',
    modified_at: 'date',
    validated_at: 'date',
    parse_status: 'keyword',
  }),
  ...fieldGroup('parsed', {
    version: 'int',
    // A decimal string that can exceed 2^53, so it stays a string.
    serial_number: 'hex',
    serial_number_hex: 'hex',
    redacted: 'bool',
    issuer_dn: 'text',
    subject_dn: 'text',
  }),
  ...distinguishedNameFields('parsed.issuer'),
  ...distinguishedNameFields('parsed.subject'),
  ...fieldGroup('parsed.subject_key_info', {
    'key_algorithm.name': 'keyword',
    'key_algorithm.oid': 'keyword',
    fingerprint_sha256: 'hex',
    'rsa.exponent': 'int',
    'rsa.length': 'int',
    'rsa.modulus': 'blob',
    'ecdsa.curve': 'keyword',
    'ecdsa.length': 'int',
    'ecdsa.b': 'blob',
    'ecdsa.gx': 'blob',
    'ecdsa.gy': 'blob',
    'ecdsa.n': 'blob',
    'ecdsa.p': 'blob',
    'ecdsa.pub': 'blob',
    'ecdsa.x': 'blob',
    'ecdsa.y': 'blob',
    'dsa.g': 'blob',
    'dsa.p': 'blob',
    'dsa.q': 'blob',
    'dsa.y': 'blob',
    'unrecognized.raw': 'blob',
  }),
  ...fieldGroup('parsed.validity_period', {
    not_before: 'date',
    not_after: 'date',
    length_seconds: 'int',
  }),
  ...fieldGroup('parsed.signature', {
    'signature_algorithm.name': 'keyword',
    'signature_algorithm.oid': 'keyword',
    value: 'blob',
    valid: 'bool',
    self_signed: 'bool',
  }),
  ...extensions('parsed.extensions'),
  ...fieldGroup('parsed.unknown_extensions', {
    id: 'keyword',
    critical: 'bool',
    value: 'blob',
  }),
  ...validation('validation'),
  ...revocation('revocation'),
  // `ct.entries` is keyed by log name; the index spells the map as key/value pairs.
  ...fieldGroup('ct.entries', {
    key: 'keyword',
    'value.index': 'int',
    'value.added_to_ct_at': 'date',
    'value.ct_to_censys_at': 'date',
  }),
  ...fieldGroup('zlint', {
    version: 'int',
    timestamp: 'date',
    notices_present: 'bool',
    warnings_present: 'bool',
    errors_present: 'bool',
    fatals_present: 'bool',
    failed_lints: 'keyword',
  }),
];
