import { children, DerError, expect, readTlv, TAG_SEQUENCE } from '../x509/der-reader.ts';

/**
 * A cheap structural check that `der` is one X.509 Certificate (SEQUENCE of TBS, algorithm,
 * signature). Full parsing happens once, in the pipeline; readers only need to reject what is
 * clearly not a certificate, with a reason. Returns the exact certificate bytes (trailing data,
 * such as OpenSSL's trust block after a TRUSTED CERTIFICATE, is cut off) or an error.
 */
export function checkCertificate(der: Uint8Array): { ok: true; der: Uint8Array } | { ok: false; error: string } {
  try {
    if (der.length === 0) return { ok: false, error: 'empty certificate' };
    const outer = expect(readTlv(der, 0), TAG_SEQUENCE, 'a Certificate SEQUENCE');
    const parts = children(der, outer);
    if (parts.length !== 3) throw new DerError(`a Certificate has 3 elements, found ${parts.length}`);
    const tbs = expect(parts[0], TAG_SEQUENCE, 'TBSCertificate');
    expect(parts[1], TAG_SEQUENCE, 'signatureAlgorithm');
    if (children(der, tbs).length < 6) throw new DerError('TBSCertificate is missing fields');
    return { ok: true, der: der.subarray(0, outer.end) };
  } catch (err) {
    return { ok: false, error: `malformed certificate: ${err instanceof Error ? err.message : String(err)}` };
  }
}
