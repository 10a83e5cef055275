/**
 * The Censys certificate document (contract §3.3) as produced by parseCertificate. Types are
 * aliases (not interfaces) so a document is assignable to the store's `Json` record type.
 * Keys are present only when the certificate carries the information.
 */

/** Each DN component as an array of values, in certificate order. */
export type DistinguishedNameParts = {
  common_name?: string[];
  country?: string[];
  locality?: string[];
  province?: string[];
  street_address?: string[];
  organization?: string[];
  organizational_unit?: string[];
  postal_code?: string[];
  serial_number?: string[];
  domain_component?: string[];
  email_address?: string[];
  given_name?: string[];
  surname?: string[];
  jurisdiction_country?: string[];
  jurisdiction_locality?: string[];
  jurisdiction_province?: string[];
  organization_id?: string[];
};

export type GeneralNamesDoc = {
  dns_names?: string[];
  email_addresses?: string[];
  ip_addresses?: string[];
  uniform_resource_identifiers?: string[];
  registered_ids?: string[];
  directory_names?: DistinguishedNameParts[];
  other_names?: { id: string; value: string }[];
  edi_party_names?: { name_assigner?: string; party_name?: string }[];
};

export type KeyUsageDoc = {
  digital_signature?: boolean;
  content_commitment?: boolean;
  key_encipherment?: boolean;
  data_encipherment?: boolean;
  key_agreement?: boolean;
  certificate_sign?: boolean;
  crl_sign?: boolean;
  encipher_only?: boolean;
  decipher_only?: boolean;
  /** Bit mask, bit i = the i-th usage of RFC 5280 (digital_signature = 1). */
  value: number;
};

export type SignedCertificateTimestampDoc = {
  version: number;
  log_id: string;
  timestamp: string;
  signature: { hash_algorithm: string; signature_algorithm: string; signature: string };
};

export type NameConstraintsDoc = {
  critical: boolean;
  permitted_names?: string[];
  excluded_names?: string[];
  permitted_email_addresses?: string[];
  excluded_email_addresses?: string[];
  permitted_ip_addresses?: { cidr: string; begin: string; end: string; mask: string }[];
  excluded_ip_addresses?: { cidr: string; begin: string; end: string; mask: string }[];
  permitted_uris?: string[];
  excluded_uris?: string[];
  permitted_directory_names?: DistinguishedNameParts[];
  excluded_directory_names?: DistinguishedNameParts[];
};

export type ExtensionsDoc = {
  key_usage?: KeyUsageDoc;
  basic_constraints?: { is_ca: boolean; max_path_len?: number };
  subject_alt_name?: GeneralNamesDoc;
  issuer_alt_name?: GeneralNamesDoc;
  name_constraints?: NameConstraintsDoc;
  crl_distribution_points?: string[];
  authority_key_id?: string;
  subject_key_id?: string;
  extended_key_usage?: Record<string, boolean | string[]>;
  certificate_policies?: {
    id: string;
    cps?: string[];
    user_notice?: { explicit_text?: string; notice_reference?: { organization?: string; notice_numbers?: number[] } }[];
  }[];
  authority_info_access?: { issuer_urls?: string[]; ocsp_urls?: string[] };
  ct_poison?: boolean;
  signed_certificate_timestamps?: SignedCertificateTimestampDoc[];
};

export type SubjectKeyInfoDoc = {
  key_algorithm: { name: string; oid: string };
  rsa?: { exponent: number; modulus: string; length: number };
  ecdsa?: { curve: string; length: number; pub: string; x?: string; y?: string };
  dsa?: { p: string; q: string; g: string; y: string };
  unrecognized?: { raw: string };
  fingerprint_sha256: string;
};

export type ParsedCertificate = {
  version: number;
  serial_number: string;
  serial_number_hex: string;
  issuer_dn: string;
  subject_dn: string;
  issuer: DistinguishedNameParts;
  subject: DistinguishedNameParts;
  validity_period: { not_before: string; not_after: string; length_seconds: number };
  subject_key_info: SubjectKeyInfoDoc;
  signature: {
    signature_algorithm: { name: string; oid: string };
    value: string;
    /** Only set when the certificate is self-signed and its own key verifies the signature. */
    valid?: boolean;
    self_signed: boolean;
  };
  extensions: ExtensionsDoc;
  unknown_extensions?: { id: string; critical: boolean; value: string }[];
};

export type ValidationLevel = 'UNKNOWN' | 'DV' | 'OV' | 'EV';

export type CertificateDocument = {
  fingerprint_sha256: string;
  fingerprint_sha1: string;
  fingerprint_md5: string;
  tbs_fingerprint_sha256: string;
  /** TBS with the CT poison and SCT list extensions removed: equal for a precertificate and its final certificate. */
  tbs_no_ct_fingerprint_sha256: string;
  spki_fingerprint_sha256: string;
  /** SHA-256 over the encoded SubjectPublicKeyInfo followed by the encoded subject (as zcrypto computes it). */
  spki_subject_fingerprint_sha256: string;
  names: string[];
  validation_level: ValidationLevel;
  labels: string[];
  precert: boolean;
  parse_status: 'CERTIFICATE_PARSE_STATUS_SUCCESS';
  raw: string;
  parsed: ParsedCertificate;
  added_at?: string;
  modified_at?: string;
  ever_seen_in_scan?: boolean;
};

export type ParseCertificateResult = { ok: true; doc: CertificateDocument } | { ok: false; error: string };
