/**
 * The fixed key pool (assets/demo-keys): public test keys made once with openssl, so demo
 * certificates are byte-identical from run to run (RSA PKCS#1 v1.5 signatures are deterministic).
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { children, readBitString, readTlv } from '../x509/der-reader.ts';

export interface PoolKey {
  readonly file: string;
  readonly kind: 'rsa' | 'ec';
  readonly privateKey: KeyObject;
  /** SubjectPublicKeyInfo DER. */
  readonly spki: Buffer;
  /** RFC 5280 §4.2.1.2 method 1: SHA-1 of the subjectPublicKey bits. */
  readonly keyId: Buffer;
}

export interface KeyPool {
  readonly roots: PoolKey[];
  readonly cas: PoolKey[];
  readonly leafRsa: PoolKey[];
  readonly leafEc: PoolKey[];
}

export const DEFAULT_KEYS_DIR = fileURLToPath(new URL('../../../assets/demo-keys/', import.meta.url));

function loadKey(dir: string, file: string): PoolKey {
  const privateKey = createPrivateKey(readFileSync(join(dir, file), 'utf8'));
  const spki = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  const outer = readTlv(spki, 0);
  const [, bits] = children(spki, outer);
  const keyId = createHash('sha1').update(readBitString(spki, bits).bytes).digest();
  return { file, kind: privateKey.asymmetricKeyType === 'ec' ? 'ec' : 'rsa', privateKey, spki, keyId };
}

const pools = new Map<string, KeyPool>();

/** Loads (once per directory) the pool, keys in file-name order. */
export function loadKeyPool(dir: string = DEFAULT_KEYS_DIR): KeyPool {
  const cached = pools.get(dir);
  if (cached) return cached;
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.pem'))
    .sort();
  const load = (prefix: string): PoolKey[] => files.filter((f) => f.startsWith(prefix)).map((f) => loadKey(dir, f));
  const pool: KeyPool = { roots: load('root-'), cas: load('ca-'), leafRsa: load('leaf-rsa'), leafEc: load('leaf-p256') };
  if (pool.roots.length < 2 || pool.cas.length < 10 || pool.leafRsa.length < 2 || pool.leafEc.length < 1) {
    throw new Error(`key pool in ${dir} is incomplete`);
  }
  pools.set(dir, pool);
  return pool;
}
