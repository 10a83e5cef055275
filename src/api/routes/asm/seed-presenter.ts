/** Seeds as the ASM API shows them (contract §2B.2). */
import type { Seed } from '../../../store/store.ts';
import { wireValue, type SeedWireValue } from '../../../asm/index.ts';

export interface SeedView {
  readonly id: number;
  readonly type: Seed['type'];
  readonly value: SeedWireValue;
  readonly label: string;
  readonly source: Seed['source'];
  readonly createdOn: string;
  readonly isAutomatedDiscovery: boolean;
}

/** `2022-11-01T12:34:23.111000Z`: Censys shows microseconds; the store keeps milliseconds. */
export function microTime(iso: string): string {
  return new Date(iso).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export function presentSeed(seed: Seed): SeedView {
  return {
    id: seed.id,
    type: seed.type,
    value: wireValue(seed.type, seed.value),
    label: seed.label,
    source: seed.source,
    createdOn: microTime(seed.createdOn),
    // Every seed here was stated by a person or a script; none come from automated discovery.
    isAutomatedDiscovery: false,
  };
}

/** A removed seed carries exactly the keys the replace response schema allows. */
export function presentRemovedSeed(seed: Seed): Pick<SeedView, 'id' | 'type' | 'value' | 'label' | 'source'> {
  return { id: seed.id, type: seed.type, value: wireValue(seed.type, seed.value), label: seed.label, source: seed.source };
}
