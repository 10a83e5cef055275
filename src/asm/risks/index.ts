/**
 * Risk detection for the ASM API: the risk-type catalogue, pure detectors over Censys host and
 * certificate documents and storage buckets, and the identity that ties a detected risk to its
 * instance across re-evaluations. No I/O: callers pass documents, a clock and a certificate lookup.
 */
export type { CertDoc, ContextType, DetectContext, DetectedRisk, Finding, HostDoc, RiskContext, RiskSubject, RiskType, ServiceDoc, Severity, StorageDoc, SubjectType } from './risk-model.ts';
export { SEVERITIES } from './risk-model.ts';
export { RISK_TYPES, riskTypeById, configNumber } from './risk-types.ts';
export { detectHostRisks, detectCertificateRisks, detectStorageRisks, hostSubject } from './detect-risks.ts';
export { identity, subjectKey, contextKey } from './risk-identity.ts';
export { VULNERABLE_SOFTWARE, VULNERABLE_SOFTWARE_AS_OF, type VulnerableSoftware, type ProductMatch } from './vulnerable-software.ts';
export { EOL_SOFTWARE, EOL_SOFTWARE_AS_OF, type EolRow } from './eol-software.ts';
export { compareVersions, inRange, type VersionRange } from './version-compare.ts';
export { DETECTORS } from './detectors/registry.ts';
export type { Detector, Family } from './detectors/detector.ts';
