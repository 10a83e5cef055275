import { ipText } from '../../lib/ip.ts';
import type { HostObservation } from '../observation.ts';

/** The identity of a host document: the IP, or `ip+name` for a named virtual host. */
export interface HostId {
  readonly id: string;
  readonly ip: string;
  readonly name?: string;
}

const IP_CHARS = /^[0-9a-f.:]+$/;

/** Virtual host names: lower case, no trailing dot; a name that is the IP itself is no name. */
function virtualName(name: string | undefined, ip: string): string | undefined {
  if (name === undefined) return undefined;
  const n = name.trim().toLowerCase().replace(/\.$/, '');
  // Only a name made of IP characters can be the address written another way (parsing every DNS
  // name as an IP was a visible share of ingest time).
  if (n === '' || n === ip || (IP_CHARS.test(n) && ipText(n) === ip)) return undefined;
  return n;
}

// A dotted quad without leading zeros is already in the form ipText gives: most scan records are.
const CANONICAL_V4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

export function hostIdOf(obs: Pick<HostObservation, 'ip' | 'name'>): { ok: true; value: HostId } | { ok: false; reason: string } {
  const ip = typeof obs.ip !== 'string' ? undefined : CANONICAL_V4.test(obs.ip) ? obs.ip : ipText(obs.ip);
  if (!ip) return { ok: false, reason: `not an IP address: ${JSON.stringify(obs.ip)}` };
  const name = virtualName(obs.name, ip);
  if (name !== undefined && /[\s+/]/.test(name)) return { ok: false, reason: `bad virtual host name: ${JSON.stringify(obs.name)}` };
  return { ok: true, value: name ? { id: `${ip}+${name}`, ip, name } : { id: ip, ip } };
}
