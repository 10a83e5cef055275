import { children, DerError, expect, isContext, isUniversal, raw, readOid, readTlv, TAG_OID, TAG_SEQUENCE } from '../x509/der-reader.ts';

const OID_SIGNED_DATA = '1.2.840.113549.1.7.2';

/** One entry of a SignedData `certificates` set: an X.509 certificate, or another choice we skip. */
export type Pkcs7Certificate = { readonly ok: true; readonly der: Uint8Array } | { readonly ok: false; readonly error: string };

/**
 * The certificates of a PKCS#7 / CMS ContentInfo carrying SignedData (RFC 5652 §5.1), as a
 * `.p7b`/`.p7c` holds them. Only DER is read: BER indefinite lengths, which some Windows tools
 * emit, are reported as an error.
 */
export function pkcs7Certificates(bytes: Uint8Array): { ok: true; certificates: Pkcs7Certificate[] } | { ok: false; error: string } {
  try {
    const info = expect(readTlv(bytes, 0), TAG_SEQUENCE, 'ContentInfo');
    const [typeTlv, contentTlv] = children(bytes, info);
    const type = readOid(bytes, expect(typeTlv, TAG_OID, 'contentType'));
    if (type !== OID_SIGNED_DATA) return { ok: false, error: `PKCS#7 content type ${type} is not SignedData` };
    if (!contentTlv || !isContext(contentTlv, 0)) throw new DerError('SignedData content missing');
    const [signedData] = children(bytes, contentTlv);
    const fields = children(bytes, expect(signedData, TAG_SEQUENCE, 'SignedData'));
    const certsTlv = fields.find((f) => isContext(f, 0) && f.constructed);
    if (!certsTlv) return { ok: true, certificates: [] };
    const certificates: Pkcs7Certificate[] = children(bytes, certsTlv).map((c) =>
      isUniversal(c, TAG_SEQUENCE)
        ? { ok: true, der: new Uint8Array(raw(bytes, c)) }
        : { ok: false, error: `certificate choice [${c.tag}] is not an X.509 certificate` },
    );
    return { ok: true, certificates };
  } catch (err) {
    return { ok: false, error: `malformed PKCS#7: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** True when `head` begins like a DER ContentInfo of SignedData (the OID sits in the first bytes). */
export function looksLikePkcs7Der(head: Uint8Array): boolean {
  try {
    if (head[0] !== 0x30) return false;
    const info = readTlv(head, 0, Number.MAX_SAFE_INTEGER);
    const oidTlv = readTlv(head, info.contentStart);
    return isUniversal(oidTlv, TAG_OID) && readOid(head, oidTlv) === OID_SIGNED_DATA;
  } catch {
    return false;
  }
}
