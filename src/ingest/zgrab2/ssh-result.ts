import { hash } from 'node:crypto';
import type { SoftwareObservation } from '../observation.ts';
import { arr, isObject, obj, str } from './read-lines.ts';
import { softwareFor, sshSoftware } from './software.ts';

export interface SshMapping {
  readonly ssh: Record<string, unknown>;
  readonly banner?: string;
  readonly software: SoftwareObservation[];
}

const KEX_LISTS = [
  'kex_algorithms',
  'host_key_algorithms',
  'client_to_server_ciphers',
  'server_to_client_ciphers',
  'client_to_server_macs',
  'server_to_client_macs',
  'client_to_server_compression',
  'server_to_client_compression',
  'client_to_server_languages',
  'server_to_client_languages',
] as const;

const PUBLIC_KEYS = ['rsa_public_key', 'dsa_public_key', 'ecdsa_public_key', 'ed25519_public_key', 'certkey_public_key'] as const;

function names(v: unknown): string[] {
  return arr(v).filter((x): x is string => typeof x === 'string');
}

function algGroup(v: unknown): Record<string, string> | undefined {
  const g = obj(v);
  if (!g) return undefined;
  const out: Record<string, string> = {};
  for (const k of ['cipher', 'mac', 'compression']) {
    const s = str(g[k]);
    if (s) out[k] = s;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** HASSH of the server: MD5 of its KEXINIT kex;ciphers;macs;compression (server-to-client lists). */
function hasshServer(kex: Record<string, string[]>): string | undefined {
  if (!kex.kex_algorithms) return undefined;
  const text = [kex.kex_algorithms, kex.server_to_client_ciphers ?? [], kex.server_to_client_macs ?? [], kex.server_to_client_compression ?? []]
    .map((l) => l.join(','))
    .join(';');
  // One-shot: a Hash object per service cost more than the digest of this short text.
  return hash('md5', text, 'hex');
}

/**
 * The zgrab2 ssh module's `result` (server_id, server_key_exchange, algorithm_selection,
 * key_exchange.server_host_key) in the Censys `ssh` shape.
 */
export function mapSshResult(result: Record<string, unknown>): SshMapping {
  const ssh: Record<string, unknown> = {};
  const id = obj(result.server_id);
  const raw = str(id?.raw);
  const software: SoftwareObservation[] = [];
  if (id) {
    const endpoint: Record<string, string> = {};
    if (raw) endpoint.raw = raw;
    const version = str(id.version);
    if (version) endpoint.protocol_version = version;
    const sw = str(id.software);
    if (sw) {
      endpoint.software_version = sw;
      const s = sshSoftware(sw);
      if (s) software.push(s);
    }
    const comment = str(id.comment);
    if (comment) {
      endpoint.comment = comment;
      const distro = /^(Ubuntu|Debian)\b/i.exec(comment);
      if (distro) software.push(softwareFor(distro[1]));
    }
    ssh.endpoint_id = endpoint;
  }

  const kexMsg = obj(result.server_key_exchange);
  if (kexMsg) {
    const kex: Record<string, string[]> = {};
    for (const k of KEX_LISTS) if (Array.isArray(kexMsg[k])) kex[k] = names(kexMsg[k]);
    const msg: Record<string, unknown> = { ...kex };
    if (typeof kexMsg.first_kex_follows === 'boolean') msg.first_kex_follows = kexMsg.first_kex_follows;
    ssh.kex_init_message = msg;
    const hassh = hasshServer(kex);
    if (hassh) ssh.hassh_fingerprint = hassh;
  }

  const sel = obj(result.algorithm_selection);
  if (sel) {
    const out: Record<string, unknown> = {};
    const kexAlg = str(sel.dh_kex_algorithm) ?? str(sel.kex_algorithm);
    if (kexAlg) out.kex_algorithm = kexAlg;
    const hostKeyAlg = str(sel.host_key_algorithm);
    if (hostKeyAlg) out.host_key_algorithm = hostKeyAlg;
    const c2s = algGroup(sel.client_to_server_alg_group);
    if (c2s) out.client_to_server_alg_group = c2s;
    const s2c = algGroup(sel.server_to_client_alg_group);
    if (s2c) out.server_to_client_alg_group = s2c;
    ssh.algorithm_selection = out;
  }

  const hostKey = obj(obj(result.key_exchange)?.server_host_key) ?? obj(result.server_host_key);
  if (hostKey) {
    const out: Record<string, unknown> = {};
    const fp = str(hostKey.fingerprint_sha256);
    if (fp) out.fingerprint_sha256 = fp.toLowerCase();
    for (const k of PUBLIC_KEYS) if (isObject(hostKey[k])) out[k] = hostKey[k];
    ssh.server_host_key = out;
  }

  return { ssh, ...(raw ? { banner: raw } : {}), software };
}
