/** Object identifiers the certificate parser names, with the labels used in Censys documents. */

/** Distinguished-name attributes: short name for the DN string, key in parsed.subject/issuer. */
export const NAME_ATTRIBUTES: Readonly<Record<string, { short: string; key?: string }>> = {
  '2.5.4.3': { short: 'CN', key: 'common_name' },
  '2.5.4.4': { short: 'SN', key: 'surname' },
  '2.5.4.5': { short: 'serialNumber', key: 'serial_number' },
  '2.5.4.6': { short: 'C', key: 'country' },
  '2.5.4.7': { short: 'L', key: 'locality' },
  '2.5.4.8': { short: 'ST', key: 'province' },
  '2.5.4.9': { short: 'street', key: 'street_address' },
  '2.5.4.10': { short: 'O', key: 'organization' },
  '2.5.4.11': { short: 'OU', key: 'organizational_unit' },
  '2.5.4.12': { short: 'title' },
  '2.5.4.15': { short: 'businessCategory' },
  '2.5.4.17': { short: 'postalCode', key: 'postal_code' },
  '2.5.4.42': { short: 'GN', key: 'given_name' },
  '2.5.4.97': { short: 'organizationIdentifier', key: 'organization_id' },
  '0.9.2342.19200300.100.1.1': { short: 'UID' },
  '0.9.2342.19200300.100.1.25': { short: 'DC', key: 'domain_component' },
  '1.2.840.113549.1.9.1': { short: 'emailAddress', key: 'email_address' },
  '1.3.6.1.4.1.311.60.2.1.1': { short: 'jurisdictionL', key: 'jurisdiction_locality' },
  '1.3.6.1.4.1.311.60.2.1.2': { short: 'jurisdictionST', key: 'jurisdiction_province' },
  '1.3.6.1.4.1.311.60.2.1.3': { short: 'jurisdictionC', key: 'jurisdiction_country' },
};

export const SIGNATURE_ALGORITHMS: Readonly<Record<string, string>> = {
  '1.2.840.113549.1.1.2': 'MD2-RSA',
  '1.2.840.113549.1.1.4': 'MD5-RSA',
  '1.2.840.113549.1.1.5': 'SHA1-RSA',
  '1.2.840.113549.1.1.10': 'SHA256-RSAPSS',
  '1.2.840.113549.1.1.11': 'SHA256-RSA',
  '1.2.840.113549.1.1.12': 'SHA384-RSA',
  '1.2.840.113549.1.1.13': 'SHA512-RSA',
  '1.2.840.113549.1.1.14': 'SHA224-RSA',
  '1.2.840.10040.4.3': 'DSA-SHA1',
  '2.16.840.1.101.3.4.3.2': 'DSA-SHA256',
  '1.2.840.10045.4.1': 'ECDSA-SHA1',
  '1.2.840.10045.4.3.1': 'ECDSA-SHA224',
  '1.2.840.10045.4.3.2': 'ECDSA-SHA256',
  '1.2.840.10045.4.3.3': 'ECDSA-SHA384',
  '1.2.840.10045.4.3.4': 'ECDSA-SHA512',
  '1.3.101.112': 'Ed25519',
  '1.3.101.113': 'Ed448',
};

/** node:crypto digest for verifying a self-signature; null = the algorithm has its own hash (EdDSA). */
export const SIGNATURE_DIGESTS: Readonly<Record<string, string | null>> = {
  '1.2.840.113549.1.1.4': 'md5',
  '1.2.840.113549.1.1.5': 'sha1',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.113549.1.1.14': 'sha224',
  '1.2.840.10045.4.1': 'sha1',
  '1.2.840.10045.4.3.1': 'sha224',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
  '1.2.840.10040.4.3': 'sha1',
  '2.16.840.1.101.3.4.3.2': 'sha256',
  '1.3.101.112': null,
  '1.3.101.113': null,
};

export const OID_RSA = '1.2.840.113549.1.1.1';
export const OID_RSA_PSS = '1.2.840.113549.1.1.10';
export const OID_EC = '1.2.840.10045.2.1';
export const OID_DSA = '1.2.840.10040.4.1';
export const OID_ED25519 = '1.3.101.112';
export const OID_ED448 = '1.3.101.113';
export const OID_X25519 = '1.3.101.110';

export const CURVES: Readonly<Record<string, { name: string; bits: number }>> = {
  '1.2.840.10045.3.1.7': { name: 'P-256', bits: 256 },
  '1.3.132.0.34': { name: 'P-384', bits: 384 },
  '1.3.132.0.35': { name: 'P-521', bits: 521 },
  '1.3.132.0.33': { name: 'P-224', bits: 224 },
  '1.3.132.0.10': { name: 'secp256k1', bits: 256 },
};

export const EXT = {
  subjectKeyId: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  issuerAltName: '2.5.29.18',
  basicConstraints: '2.5.29.19',
  nameConstraints: '2.5.29.30',
  crlDistributionPoints: '2.5.29.31',
  certificatePolicies: '2.5.29.32',
  authorityKeyId: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  authorityInfoAccess: '1.3.6.1.5.5.7.1.1',
  ctPoison: '1.3.6.1.4.1.11129.2.4.3',
  sctList: '1.3.6.1.4.1.11129.2.4.2',
} as const;

export const KEY_USAGE_BITS: readonly string[] = [
  'digital_signature',
  'content_commitment',
  'key_encipherment',
  'data_encipherment',
  'key_agreement',
  'certificate_sign',
  'crl_sign',
  'encipher_only',
  'decipher_only',
];

export const EXTENDED_KEY_USAGES: Readonly<Record<string, string>> = {
  '2.5.29.37.0': 'any',
  '1.3.6.1.5.5.7.3.1': 'server_auth',
  '1.3.6.1.5.5.7.3.2': 'client_auth',
  '1.3.6.1.5.5.7.3.3': 'code_signing',
  '1.3.6.1.5.5.7.3.4': 'email_protection',
  '1.3.6.1.5.5.7.3.5': 'ipsec_end_system',
  '1.3.6.1.5.5.7.3.6': 'ipsec_tunnel',
  '1.3.6.1.5.5.7.3.7': 'ipsec_user',
  '1.3.6.1.5.5.7.3.8': 'time_stamping',
  '1.3.6.1.5.5.7.3.9': 'ocsp_signing',
  '1.3.6.1.5.5.7.3.10': 'dvcs',
  '1.3.6.1.5.5.7.3.13': 'eap_over_ppp',
  '1.3.6.1.5.5.7.3.14': 'eap_over_lan',
  '1.3.6.1.5.5.7.3.17': 'ipsec_intermediate_system_usage',
  '1.3.6.1.5.5.8.2.2': 'ipsec_intermediate_system_usage',
  '2.16.840.1.113730.4.1': 'netscape_server_gated_crypto',
  '1.3.6.1.4.1.311.10.3.3': 'microsoft_server_gated_crypto',
  '1.3.6.1.4.1.311.10.3.4': 'microsoft_encrypted_file_system',
  '1.3.6.1.4.1.311.10.3.4.1': 'microsoft_efs_recovery',
  '1.3.6.1.4.1.311.10.3.1': 'microsoft_cert_trust_list_signing',
  '1.3.6.1.4.1.311.10.3.2': 'microsoft_timestamp_signing',
  '1.3.6.1.4.1.311.10.3.5': 'microsoft_whql_crypto',
  '1.3.6.1.4.1.311.10.3.6': 'microsoft_nt5_crypto',
  '1.3.6.1.4.1.311.10.3.7': 'microsoft_oem_whql_crypto',
  '1.3.6.1.4.1.311.10.3.8': 'microsoft_embedded_nt_crypto',
  '1.3.6.1.4.1.311.10.3.9': 'microsoft_root_list_signer',
  '1.3.6.1.4.1.311.10.3.10': 'microsoft_qualified_subordinate',
  '1.3.6.1.4.1.311.10.3.11': 'microsoft_key_recovery_3',
  '1.3.6.1.4.1.311.10.3.12': 'microsoft_document_signing',
  '1.3.6.1.4.1.311.10.3.13': 'microsoft_lifetime_signing',
  '1.3.6.1.4.1.311.10.3.14': 'microsoft_mobile_device_software',
  '1.3.6.1.4.1.311.10.5.1': 'microsoft_drm',
  '1.3.6.1.4.1.311.10.5.2': 'microsoft_drm_individualization',
  '1.3.6.1.4.1.311.10.6.1': 'microsoft_licenses',
  '1.3.6.1.4.1.311.10.6.2': 'microsoft_license_server',
  '1.3.6.1.4.1.311.20.2.1': 'microsoft_enrollment_agent',
  '1.3.6.1.4.1.311.20.2.2': 'microsoft_smartcard_logon',
  '1.3.6.1.4.1.311.21.5': 'microsoft_ca_exchange',
  '1.3.6.1.4.1.311.21.6': 'microsoft_key_recovery_21',
  '1.3.6.1.4.1.311.21.19': 'dvcs',
  '1.3.6.1.4.1.311.61.1.1': 'microsoft_kernel_mode_code_signing',
  '1.3.6.1.4.1.311.47.1.1': 'microsoft_system_health',
  '1.3.6.1.4.1.311.47.1.3': 'microsoft_system_health_loophole',
  '1.3.6.1.4.1.311.10.3.24': 'microsoft_smart_display',
  '1.3.6.1.4.1.311.10.3.25': 'microsoft_csp_signature',
  '1.3.6.1.4.1.311.2.1.21': 'microsoft_sgc_serialized',
  '1.2.840.113635.100.4.1': 'apple_code_signing',
  '1.2.840.113635.100.4.1.1': 'apple_code_signing_development',
  '1.2.840.113635.100.4.1.3': 'apple_code_signing_third_party',
  '1.2.840.113635.100.4.1.2': 'apple_software_update_signing',
  '1.2.840.113635.100.4.2': 'apple_ichat_signing',
  '1.2.840.113635.100.4.3': 'apple_ichat_encryption',
  '1.2.840.113635.100.4.4': 'apple_system_identity',
  '1.2.840.113635.100.4.5': 'apple_crypto_env',
  '1.2.840.113635.100.4.5.1': 'apple_crypto_production_env',
  '1.2.840.113635.100.4.5.2': 'apple_crypto_maintenance_env',
  '1.2.840.113635.100.4.5.3': 'apple_crypto_test_env',
  '1.2.840.113635.100.4.5.4': 'apple_crypto_development_env',
  '1.2.840.113635.100.4.6': 'apple_crypto_qos',
  '1.2.840.113635.100.4.6.1': 'apple_crypto_tier0_qos',
  '1.2.840.113635.100.4.6.2': 'apple_crypto_tier1_qos',
  '1.2.840.113635.100.4.6.3': 'apple_crypto_tier2_qos',
  '1.2.840.113635.100.4.6.4': 'apple_crypto_tier3_qos',
  '1.2.840.113635.100.4.8': 'apple_resource_signing',
  '1.3.6.1.5.5.7.3.19': 'sbgp_cert_aa_service_auth',
};

/** CA/Browser Forum reserved policy OIDs, which say how the subject was validated. */
export const VALIDATION_POLICIES: Readonly<Record<string, 'DV' | 'OV' | 'EV' | 'IV'>> = {
  '2.23.140.1.2.1': 'DV',
  '2.23.140.1.2.2': 'OV',
  '2.23.140.1.2.3': 'IV',
  '2.23.140.1.1': 'EV',
};

export const AIA_OCSP = '1.3.6.1.5.5.7.48.1';
export const AIA_CA_ISSUERS = '1.3.6.1.5.5.7.48.2';
export const QUALIFIER_CPS = '1.3.6.1.5.5.7.2.1';
export const QUALIFIER_USER_NOTICE = '1.3.6.1.5.5.7.2.2';
