import { ipText } from '../lib/ip.ts';
import type { Result } from '../lib/problem.ts';
import { fail, ok } from '../lib/problem.ts';

export interface HostId {
  /** The canonical id: normalised address, then `+name` for a virtual host. */
  readonly id: string;
  readonly ip: string;
  readonly name?: string;
}

/** `1.1.1.1`, `2001:db8::1`, `1.1.1.1+one.one.one.one` (a literal `+`, never a space). */
export function parseHostId(raw: string): Result<HostId> {
  const text = raw.trim();
  const plus = text.indexOf('+');
  const ipPart = plus < 0 ? text : text.slice(0, plus);
  const ip = ipText(ipPart);
  if (!ip) return fail('invalid_ip', 'Invalid ip address');
  if (plus < 0) return ok({ id: ip, ip });
  const name = text.slice(plus + 1).trim().toLowerCase();
  if (name === '' || name.length > 253 || /\s/.test(name)) return fail('invalid_ip', 'Invalid virtual host name');
  return ok({ id: `${ip}+${name}`, ip, name });
}

const SHA256 = /^[0-9a-fA-F]{64}$/;

export function parseFingerprint(raw: string): Result<string> {
  const text = raw.trim();
  return SHA256.test(text) ? ok(text.toLowerCase()) : fail('invalid_fingerprint', 'Invalid SHA-256 fingerprint');
}

/** The id a host document is stored under. */
export function hostIdOf(doc: Record<string, unknown>): Result<HostId> {
  if (typeof doc.ip !== 'string') return fail('invalid_request', "the document has no string 'ip'");
  if (doc.name !== undefined && typeof doc.name !== 'string') return fail('invalid_request', "'name' must be a string");
  return parseHostId(doc.name ? `${doc.ip}+${doc.name}` : doc.ip);
}

export function certificateIdOf(doc: Record<string, unknown>): Result<string> {
  if (typeof doc.fingerprint_sha256 !== 'string') return fail('invalid_request', "the document has no string 'fingerprint_sha256'");
  return parseFingerprint(doc.fingerprint_sha256);
}
