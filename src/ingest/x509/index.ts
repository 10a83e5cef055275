export { parseCertificate } from './parse-certificate.ts';
export { pemToDer, derToPem, type PemResult } from './pem.ts';
export type {
  CertificateDocument,
  DistinguishedNameParts,
  ExtensionsDoc,
  GeneralNamesDoc,
  ParseCertificateResult,
  ParsedCertificate,
  SubjectKeyInfoDoc,
  ValidationLevel,
} from './certificate-document.ts';
