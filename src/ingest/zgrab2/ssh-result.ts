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

/** `kex_init_message`'s keys, and `server_host_key`'s, in canonical order. */
const KEX_MESSAGE_KEYS = [...KEX_LISTS, 'first_kex_follows'].sort();
const HOST_KEY_KEYS = ['fingerprint_sha256', ...PUBLIC_KEYS].sort();

function names(v: unknown): string[] {
  return arr(v).filter((x): x is string => typeof x === 'string');
}

function algGroup(v: unknown): Record<string, string> | undefined {
  const g = obj(v);
  if (!g) return undefined;
  const out: Record<string, string> = {};
  for (const k of ['cipher', 'compression', 'mac']) {
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
 * key_exchange.server_host_key) in the Censys `ssh` shape. Objects are built with their keys in
 * canonical order (see pipeline/key-order.ts), so the store writes them without sorted copies.
 */
export function mapSshResult(result: Record<string, unknown>): SshMapping {
  const id = obj(result.server_id);
  const raw = str(id?.raw);
  const software: SoftwareObservation[] = [];
  let endpoint: Record<string, string> | undefined;
  if (id) {
    endpoint = {};
    const comment = str(id.comment);
    const version = str(id.version);
    const sw = str(id.software);
    if (comment) endpoint.comment = comment;
    if (version) endpoint.protocol_version = version;
    if (raw) endpoint.raw = raw;
    if (sw) {
      endpoint.software_version = sw;
      const s = sshSoftware(sw);
      if (s) software.push(s);
    }
    if (comment) {
      const distro = /^(Ubuntu|Debian)\b/i.exec(comment);
      if (distro) software.push(softwareFor(distro[1]));
    }
  }

  const kexMsg = obj(result.server_key_exchange);
  let msg: Record<string, unknown> | undefined;
  let hassh: string | undefined;
  if (kexMsg) {
    const kex: Record<string, string[]> = {};
    for (const k of KEX_LISTS) if (Array.isArray(kexMsg[k])) kex[k] = names(kexMsg[k]);
    msg = {};
    for (const k of KEX_MESSAGE_KEYS) {
      if (k === 'first_kex_follows') {
        if (typeof kexMsg.first_kex_follows === 'boolean') msg.first_kex_follows = kexMsg.first_kex_follows;
      } else if (kex[k]) msg[k] = kex[k];
    }
    hassh = hasshServer(kex);
  }

  const sel = obj(result.algorithm_selection);
  let selection: Record<string, unknown> | undefined;
  if (sel) {
    selection = {};
    const c2s = algGroup(sel.client_to_server_alg_group);
    if (c2s) selection.client_to_server_alg_group = c2s;
    const hostKeyAlg = str(sel.host_key_algorithm);
    if (hostKeyAlg) selection.host_key_algorithm = hostKeyAlg;
    const kexAlg = str(sel.dh_kex_algorithm) ?? str(sel.kex_algorithm);
    if (kexAlg) selection.kex_algorithm = kexAlg;
    const s2c = algGroup(sel.server_to_client_alg_group);
    if (s2c) selection.server_to_client_alg_group = s2c;
  }

  const hostKey = obj(obj(result.key_exchange)?.server_host_key) ?? obj(result.server_host_key);
  let serverHostKey: Record<string, unknown> | undefined;
  if (hostKey) {
    serverHostKey = {};
    for (const k of HOST_KEY_KEYS) {
      if (k === 'fingerprint_sha256') {
        const fp = str(hostKey.fingerprint_sha256);
        if (fp) serverHostKey.fingerprint_sha256 = fp.toLowerCase();
      } else if (isObject(hostKey[k])) serverHostKey[k] = hostKey[k];
    }
  }

  const ssh: Record<string, unknown> = {};
  if (selection) ssh.algorithm_selection = selection;
  if (endpoint) ssh.endpoint_id = endpoint;
  if (hassh) ssh.hassh_fingerprint = hassh;
  if (msg) ssh.kex_init_message = msg;
  if (serverHostKey) ssh.server_host_key = serverHostKey;
  return { ssh, ...(raw ? { banner: raw } : {}), software };
}
