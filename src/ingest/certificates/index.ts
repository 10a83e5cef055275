export { pemSource, pemRecords } from './pem-source.ts';
export { derSource } from './der-source.ts';
export { pkcs7Source } from './pkcs7-source.ts';
export { ctEntriesSource } from './ct-entries-source.ts';
export { issuanceKey } from './issuance-key.ts';
export { checkCertificate } from './certificate-check.ts';
export { pkcs7Certificates } from './pkcs7.ts';
