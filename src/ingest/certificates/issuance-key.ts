import type { CertificateDocument } from '../x509/certificate-document.ts';

/**
 * What links a precertificate to the certificate issued from it (RFC 6962 §3.1): the same TBS
 * once the poison and SCT-list extensions are removed. The two are stored as separate documents;
 * documents with equal keys are one issuance. The issuer is part of the TBS, so two CAs cannot
 * collide by accident.
 */
export function issuanceKey(doc: Pick<CertificateDocument, 'tbs_no_ct_fingerprint_sha256'>): string {
  return doc.tbs_no_ct_fingerprint_sha256;
}
