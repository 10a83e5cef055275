export { ReferenceEngine, type EngineCatalogues } from './reference-engine.ts';
export { nestedRootOf } from './nested-root.ts';
export { typedValue, queryValue, rangeBound, keyString, positionValue, compareTyped, fastIpKey, fastIpText, type Typed } from './typed-value.ts';
export { valueTest, cachedValueTest, type ValueTest } from './value-test.ts';
export { wildcardRegExp, userRegExp, wildcardPrefix, tokensMatch } from './matchers.ts';
export { fulltextAlternatives } from './fulltext-fields.ts';
export { comparePositions, compareSortValue, cursorValue, type PositionValue } from './sort-position.ts';
export { compareBuckets, type Bucket } from './buckets.ts';
