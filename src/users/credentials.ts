/**
 * Credentials: Search API id/secret pairs and ASM keys. Secrets are random 256-bit tokens, not
 * passwords, so a salted SHA-256 is enough to keep them unreadable at rest while staying cheap
 * enough to check on every request; only the hash is stored.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function newApiId(): string {
  // Censys API ids are UUIDs; keeping the shape helps tools that validate it.
  return crypto.randomUUID();
}

/**
 * 192 random bits as 32 base64url characters, never starting with '-': command lines take a
 * leading '-' for an option (`censys asm add-seeds --api-key -abc…` fails with "expected one
 * argument"), and one secret in 64 started with it.
 */
export function newSecret(): string {
  for (;;) {
    const s = randomBytes(24).toString('base64url');
    if (s[0] !== '-') return s;
  }
}

export function hashSecret(secret: string, salt = randomBytes(12).toString('base64url')): string {
  return `sha256$${salt}$${createHash('sha256').update(`${salt}:${secret}`).digest('hex')}`;
}

export function verifySecret(secret: string, stored: string): boolean {
  const [scheme, salt, hex] = stored.split('$');
  if (scheme !== 'sha256' || !salt || !hex) return false;
  const expected = Buffer.from(hex, 'hex');
  const actual = createHash('sha256').update(`${salt}:${secret}`).digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** ASM keys are looked up by hash, so they use an unsalted (but pepper-free, high-entropy) digest. */
export function hashAsmKey(key: string): string {
  return `sha256$$${createHash('sha256').update(key).digest('hex')}`;
}
