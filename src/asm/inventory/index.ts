export { inventoryCatalogue, isRepeated, FAMILY_PREFIX, type InventoryHitType } from './inventory-catalogue.ts';
export { compileInventoryQuery } from './compile-inventory-query.ts';
export { loadInventory, publicDocument, type InventoryEntry, type InventoryDocument } from './inventory-documents.ts';
export { searchInventory, workspacesOf, parseInventorySort, MAX_INVENTORY_PAGE_SIZE, type InventorySearchInput, type InventorySearchPage } from './search-inventory.ts';
export { aggregateInventory, MAX_AGGREGATION_BUCKETS, type InventoryAggregateInput, type InventoryAggregateResult } from './aggregate-inventory.ts';
export { inventoryFields, type InventoryField } from './inventory-fields.ts';
