export { validateChain, type ChainValidation, type CertificateRole, type KnownCertificates, type ValidateOptions } from './validate-chain.ts';
export { loadRootStore, defaultRootStore, DEBIAN_CA_BUNDLE, type RootStore, type RootSource, type RootStoreOptions } from './root-store.ts';
export { readChainCertificate, type ChainCertificate } from './chain-certificate.ts';
export { verifySignature, type SignatureCheck } from './verify-signature.ts';
export { createIntermediatePool, type IntermediatePool } from './intermediate-pool.ts';
