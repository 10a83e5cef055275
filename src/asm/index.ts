export { createAsmContext, type AsmContext } from './asm-context.ts';
export { Discovery, withDiscovery, type EvaluationResult } from './discovery/index.ts';
export { AssetsChanged, type AssetsChange, type AssetsChangedListener } from './assets-changed.ts';
export { SeedsChanged, type SeedsChange, type SeedsChangedListener } from './seeds-changed.ts';
export { checkSeedValue, isSeedType, SEED_TYPES, type SeedValueCheck } from './seed-value.ts';
export { isReservedSeed } from './reserved-seeds.ts';
export {
  addSeeds,
  deleteSeed,
  deleteSeedsByLabel,
  getSeed,
  listSeeds,
  replaceSeedsByLabel,
  wireValue,
  type AddSeedsResult,
  type ReplaceSeedsResult,
  type SeedFilterInput,
  type SeedWireValue,
} from './seeds.ts';
