export { cloudCounts, unknownCounts, countByProvider, cloudResolver, isKnownHost, type CloudCounts, type CountedFamily, type UnknownCounts } from './cloud-counts.ts';
export { parseSinceDay, parseSinceTime } from './since-date.ts';
