/**
 * RFC 6962 §3.4 / §4.6: the MerkleTreeLeaf of a get-entries answer (`leaf_input`) and the chain
 * that comes with it (`extra_data`), decoded from their TLS presentation-language encodings.
 */
import type { CertificateObservation, IngestRecord } from '../observation.ts';
import { checkCertificate } from '../certificates/certificate-check.ts';

export type CtEntryType = 'x509_entry' | 'precert_entry';

export interface CtEntry {
  readonly entryType: CtEntryType;
  /** Milliseconds since the epoch, from the leaf's TimestampedEntry. */
  readonly timestamp: number;
  /** The certificate as logged: the X.509 certificate, or for a precert entry the pre_certificate (with its poison extension) from extra_data. */
  readonly der: Uint8Array;
  /** The issuer chain from extra_data, nearest issuer first. */
  readonly chain: readonly Uint8Array[];
  /** precert_entry only: SHA-256 of the issuer's SubjectPublicKeyInfo, and the TBSCertificate the log signed. */
  readonly issuerKeyHash?: Uint8Array;
  readonly tbsCertificate?: Uint8Array;
}

class TlsReader {
  pos = 0;
  constructor(
    private readonly buf: Uint8Array,
    private readonly what: string,
  ) {}
  private need(n: number): void {
    if (this.pos + n > this.buf.length) throw new RangeError(`${this.what} truncated at byte ${this.pos} (needs ${n} more)`);
  }
  u8(): number {
    this.need(1);
    return this.buf[this.pos++];
  }
  uint(bytes: number): number {
    this.need(bytes);
    let v = 0;
    for (let i = 0; i < bytes; i++) v = v * 256 + this.buf[this.pos++];
    return v;
  }
  bytes(n: number): Uint8Array {
    this.need(n);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  /** opaque<..2^(8*lenBytes)-1>: a length prefix then the bytes. */
  vector(lenBytes: number): Uint8Array {
    return this.bytes(this.uint(lenBytes));
  }
  /** ASN.1Cert<1..2^24-1> items filling a vector of certificates. */
  certList(): Uint8Array[] {
    const list = new TlsReader(this.vector(3), `${this.what} certificate chain`);
    const out: Uint8Array[] = [];
    while (!list.done()) out.push(list.cert());
    return out;
  }
  cert(): Uint8Array {
    const c = this.vector(3);
    if (c.length === 0) throw new RangeError(`${this.what}: empty ASN.1Cert`);
    return c;
  }
  done(): boolean {
    return this.pos >= this.buf.length;
  }
}

/** Decodes one entry; a malformed one is an error value naming what is wrong. */
export function decodeCtEntry(leafInput: Uint8Array, extraData: Uint8Array): { ok: true; entry: CtEntry } | { ok: false; error: string } {
  try {
    const leaf = new TlsReader(leafInput, 'leaf_input');
    const version = leaf.u8();
    if (version !== 0) return { ok: false, error: `unsupported MerkleTreeLeaf version ${version}` };
    const leafType = leaf.u8();
    if (leafType !== 0) return { ok: false, error: `unsupported leaf type ${leafType}` };
    const timestamp = leaf.uint(8);
    const type = leaf.uint(2);
    const extra = new TlsReader(extraData, 'extra_data');
    if (type === 0) {
      const der = leaf.cert();
      leaf.vector(2); // CtExtensions, empty in RFC 6962 logs
      if (!leaf.done()) return { ok: false, error: 'leaf_input has trailing bytes' };
      const chain = extra.certList();
      return { ok: true, entry: { entryType: 'x509_entry', timestamp, der, chain } };
    }
    if (type === 1) {
      const issuerKeyHash = leaf.bytes(32);
      const tbsCertificate = leaf.cert();
      leaf.vector(2);
      if (!leaf.done()) return { ok: false, error: 'leaf_input has trailing bytes' };
      const der = extra.cert();
      const chain = extra.certList();
      return { ok: true, entry: { entryType: 'precert_entry', timestamp, der, chain, issuerKeyHash, tbsCertificate } };
    }
    return { ok: false, error: `unknown entry type ${type}` };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

function rfc3339Millis(ms: number): string {
  return new Date(ms).toISOString();
}

/** The ingest record for one get-entries element (base64 fields as the log serves them). */
export function ctEntryRecord(
  item: unknown,
  where: { readonly log: string; readonly index: number; readonly position: string },
): IngestRecord {
  const { position } = where;
  if (typeof item !== 'object' || item === null) return { kind: 'rejected', position, reason: 'entry is not an object' };
  const { leaf_input: leafB64, extra_data: extraB64 } = item as Record<string, unknown>;
  if (typeof leafB64 !== 'string' || !isBase64(leafB64)) return { kind: 'rejected', position, reason: 'leaf_input is missing or not base64' };
  if (typeof extraB64 !== 'string' || !isBase64(extraB64)) return { kind: 'rejected', position, reason: 'extra_data is missing or not base64' };
  const decoded = decodeCtEntry(Buffer.from(leafB64, 'base64'), Buffer.from(extraB64, 'base64'));
  if (!decoded.ok) return { kind: 'rejected', position, reason: decoded.error };
  const { entry } = decoded;
  const checked = checkCertificate(entry.der);
  if (!checked.ok) return { kind: 'rejected', position, reason: `${entry.entryType === 'precert_entry' ? 'pre_certificate' : 'certificate'}: ${checked.error}` };
  const certificate: CertificateObservation = {
    der: new Uint8Array(checked.der),
    chain: entry.chain.map((c) => new Uint8Array(c)),
    ct: { log: where.log, index: where.index, timestamp: rfc3339Millis(entry.timestamp) },
    source: 'ct',
  };
  return { kind: 'certificate', position, certificate };
}

const B64 = /^[A-Za-z0-9+/]*={0,2}$/;
function isBase64(s: string): boolean {
  return s.length % 4 === 0 && B64.test(s);
}
