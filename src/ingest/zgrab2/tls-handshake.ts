import type { TlsObservation } from '../observation.ts';
import { arr, obj, str } from './read-lines.ts';

/**
 * Censys spelling of a TLS version from the forms scanners print: zgrab2 `TLSv1.2`, tlsx/httpx
 * `tls12`, `TLS 1.3`, `SSLv3`. Unknown forms are returned unchanged.
 */
export function tlsVersionName(text: string): string {
  const t = text.trim();
  let m = /^tls\s*v?\s*1[._]?([0-3])$/i.exec(t);
  if (m) return m[1] === '0' ? 'TLSv1_0' : `TLSv1_${m[1]}`;
  m = /^tls\s*v?\s*1$/i.exec(t);
  if (m) return 'TLSv1_0';
  m = /^ssl\s*v?\s*([23])(?:[._]0)?$/i.exec(t);
  if (m) return `SSLv${m[1]}`;
  return t;
}

/**
 * Certificates decoded lately, by their base64 text: scans present the same few certificates on
 * host after host. Records then share one array per certificate, which also spares copies when
 * records cross threads together (structured clone keeps shared objects shared) and hashes where
 * fingerprints are remembered per array (the pipeline). Nothing writes to these arrays.
 *
 * Keyed by the text's length and its last 64 characters (the signature's, which differ between
 * certificates), each entry holding the whole text to compare: a Map keyed by the whole text
 * hashed all of it (2 KB or so) for every record, the text being a new string each time.
 */
const decoded = new Map<string, { readonly raw: string; readonly der: Uint8Array | undefined }>();
const DECODED_MAX = 4096;

function derFromBase64(v: unknown): Uint8Array | undefined {
  const raw = str(v);
  if (!raw) return undefined;
  const key = `${raw.length}:${raw.slice(-64)}`;
  const hit = decoded.get(key);
  if (hit && hit.raw === raw) return hit.der;
  const buf = Buffer.from(raw, 'base64');
  // A DER certificate starts with a SEQUENCE; anything else is not a certificate worth passing on.
  const der = buf.length > 0 && buf[0] === 0x30 ? new Uint8Array(buf) : undefined;
  if (decoded.size >= DECODED_MAX) decoded.clear();
  decoded.set(key, { raw, der });
  return der;
}

/**
 * A zgrab2/zcrypto `handshake_log` as a TLS observation: the presented chain (leaf first) from
 * `server_certificates.certificate.raw` and `.chain[].raw`, the version and cipher from
 * `server_hello`. Undefined when the log holds neither certificates nor a server hello.
 */
export function handshakeTls(log: unknown): TlsObservation | undefined {
  const hs = obj(log);
  if (!hs) return undefined;
  const chain: Uint8Array[] = [];
  const certs = obj(hs.server_certificates);
  if (certs) {
    const leaf = derFromBase64(obj(certs.certificate)?.raw);
    if (leaf) chain.push(leaf);
    for (const c of arr(certs.chain)) {
      const der = derFromBase64(obj(c)?.raw);
      if (der) chain.push(der);
    }
  }
  const hello = obj(hs.server_hello);
  if (!hello && chain.length === 0) return undefined;
  // TLS 1.3 hides the real version in the supported_versions extension; zcrypto logs it there.
  const selected = str(obj(obj(hello?.supported_versions)?.selected_version)?.name);
  const version = selected ?? str(obj(hello?.version)?.name);
  const cipher = str(obj(hello?.cipher_suite)?.name);
  return {
    chain,
    ...(version ? { versionSelected: tlsVersionName(version) } : {}),
    ...(cipher ? { cipherSelected: cipher } : {}),
  };
}
