export { getLogbookData, compileLogbookFilters, presentLogbookEntry, LOGBOOK_WINDOW } from './logbook-data.ts';
export { addCloudAssets, cloudBucket, MAX_CLOUD_ASSETS, type CloudBucket } from './cloud-assets.ts';
export { inputAssets, MAX_INPUT_PAGE_SIZE, type InputAsset, type InputAssetsPage } from './input-assets.ts';
export { assetCounts, hostCountsByCountry, ENVIRONMENTS, COUNTED_TYPES, type Environment, type CountedType } from './asset-counts.ts';
