export { FAMILIES, familyOf, assetUrl, normaliseName, parseStorageId, parseWebEntityId, webEntityId, type AssetFamily, type FamilyName } from './asset-families.ts';
export { parsePage, pageInfo, pageWindow, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type PageInfo, type PageRequest } from './asset-page.ts';
export { checkTagInput, checkCasing, DEFAULT_TAG_COLOR, TAG_MAX_LENGTH, COLOR_MAX_LENGTH, type TagInput } from './tag-rules.ts';
export { checkComment, COMMENT_MAX_LENGTH } from './comment-rules.ts';
export { openRisksByAsset, type AssetRiskView } from './asset-risks.ts';
export { loadPresentContext, type PresentTarget } from './load-present-context.ts';
export * from './present-assets.ts';
export {
  listAssets,
  getAsset,
  resolveAsset,
  listDomainSubdomains,
  webEntityInstances,
  TAG_OPERATORS,
  DEFAULT_INSTANCE_PAGE_SIZE,
  MAX_INSTANCE_PAGE_SIZE,
  type AssetAddress,
  type AssetListQuery,
  type TagOperator,
} from './asset-queries.ts';
export { listComments, getComment, addComment, deleteComment, addTag, deleteTag, presentComment } from './asset-annotations.ts';
