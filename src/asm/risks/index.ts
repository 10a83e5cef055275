/**
 * Risks of the ASM API: the risk-type catalogue, pure detectors over Censys host and certificate
 * documents and storage buckets, the identity that ties a detected risk to its instance across
 * re-evaluations; and, over the store, evaluation of a workspace's assets into risk instances and
 * risk events, and the use cases of the /v2/risk-* and /v1/risks endpoints.
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
export { effectiveType, effectiveTypes, detectContextFor, flatCategories, type EffectiveRiskType } from './effective-types.ts';
export { planEvaluation, instanceContext, riskLogbookEvent, assetKey, type DetectedOnAsset, type EvaluationInput, type EvaluationPlan } from './plan-evaluation.ts';
export { evaluateAssets, evaluateWorkspace, EVALUATED_TYPES, type EvaluationScope, type EvaluationCounts } from './evaluate-risks.ts';
export { subscribeRiskEvaluation, evaluateChange, evaluateAllWorkspaces, type RiskEvaluationOptions } from './subscribe-risk-evaluation.ts';
export { presentRiskEvent, presentRiskInstance, presentRiskType, criOf, type WireObject } from './present-risks.ts';
export {
  listRiskInstances,
  getRiskInstance,
  patchRiskInstance,
  patchRiskInstances,
  searchRiskInstances,
  parseRiskId,
  USER_SEVERITIES,
  type InstanceChangeCounts,
  type RiskSearchResult,
} from './risk-instances.ts';
export { listRiskTypes, getRiskType, patchRiskType, type RiskTypeList, type RiskTypeListOptions, type TypeChangeCounts } from './risk-type-settings.ts';
export { readRiskEvents, encodeRiskCursor, type RiskEventsPage, type RiskEventsRequest } from './risk-events.ts';
export { listV1Risks, riskInfoId, type V1RisksPage, type V1RisksRequest } from './v1-risks.ts';
export { openRisksOf, openRisksOfMany, type AssetRisk } from './open-risks-of.ts';
