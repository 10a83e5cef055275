export { Discovery, withDiscovery, type EvaluationResult } from './discovery.ts';
export { computeAssets, assetKey, hostPorts, type ComputedAsset, type HostPort } from './compute-assets.ts';
export { diffAssets, entityOf, softwareData, DISCOVERY_SOURCES, type AssetDiff } from './diff-assets.ts';
export { DiscoveryIndex } from './discovery-index.ts';
export { bucketOfName, bucketsInText, type BucketEndpoint } from './bucket-endpoints.ts';
export { seedScope, domainOf, addressTrail, type SeedScope } from './seed-scope.ts';
