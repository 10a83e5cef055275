export { ctSync, ctStateKey, type CtSyncOptions, type CtSyncResult, type CtSyncState } from './ct-sync.ts';
export { CtLogClient, normaliseLogUrl, type CtLogClientOptions, type CtResult, type RawCtEntry, type SignedTreeHead } from './ct-log-client.ts';
export { decodeCtEntry, ctEntryRecord, type CtEntry, type CtEntryType } from './ct-entry.ts';
export { x509Entry, precertEntry, encodeX509Leaf, encodePrecertLeaf, encodeCertificateChain, encodePrecertChainEntry, precertTbs } from './ct-encode.ts';
