/** Object-storage buckets an anonymous client could list, read or write. */
import type { Finding } from '../risk-model.ts';
import { finding, type StorageDetector } from './detector.ts';

export const publicBucket: StorageDetector = {
  id: 'public-bucket',
  family: 'storage',
  on: 'storage',
  types: ['storage.bucket.open', 'storage.bucket.public_read', 'storage.bucket.public_write'],
  detect(b) {
    const base = { ...(b.provider ? { provider: b.provider } : {}), ...(b.url ? { url: b.url } : {}), ...(b.region ? { region: b.region } : {}) };
    const out: Finding[] = [];
    if (b.access.list === true) out.push(finding('storage.bucket.open', { ...base, ...(b.sampleObjects?.length ? { sampleObjects: b.sampleObjects.slice(0, 10) } : {}) }));
    // Listing already implies readable names; public_read covers the quieter case of readable objects only.
    else if (b.access.read === true) out.push(finding('storage.bucket.public_read', base));
    if (b.access.write === true) out.push(finding('storage.bucket.public_write', base));
    return out;
  },
};
