import { constants, verify } from 'node:crypto';
import { children, isContext, readOid, readSmallInt, readTlv, TAG_SEQUENCE } from '../x509/der-reader.ts';
import { OID_RSA_PSS, SIGNATURE_DIGESTS } from '../x509/oids.ts';
import { publicKeyOf, type ChainCertificate } from './chain-certificate.ts';

export type SignatureCheck = 'ok' | 'bad' | 'unsupported';

const HASH_OIDS: Readonly<Record<string, string>> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
  '2.16.840.1.101.3.4.2.4': 'sha224',
};

/** RSASSA-PSS-params (RFC 4055 §3.1): hash and salt length; the MGF hash is assumed equal to the hash, as in every deployed profile. */
function pssParams(params: Uint8Array | undefined): { hash: string; saltLength: number } | undefined {
  let hash = 'sha1';
  let saltLength = 20;
  if (!params) return { hash, saltLength };
  try {
    const seq = readTlv(params, 0);
    if (seq.tag !== TAG_SEQUENCE) return undefined;
    for (const p of children(params, seq)) {
      if (isContext(p, 0)) {
        const [alg] = children(params, p);
        const [oid] = children(params, alg);
        const name = HASH_OIDS[readOid(params, oid)];
        if (!name) return undefined;
        hash = name;
      } else if (isContext(p, 2)) {
        const [n] = children(params, p);
        saltLength = readSmallInt(params, n);
      }
    }
    return { hash, saltLength };
  } catch {
    return undefined;
  }
}

/** Does `issuer`'s key verify `child`'s signature? */
export function verifySignature(child: ChainCertificate, issuer: ChainCertificate): SignatureCheck {
  const key = publicKeyOf(issuer);
  if (!key) return 'unsupported';
  try {
    if (child.signatureOid === OID_RSA_PSS) {
      const pss = pssParams(child.signatureParams);
      if (!pss) return 'unsupported';
      return verify(pss.hash, child.tbs, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: pss.saltLength }, child.signature) ? 'ok' : 'bad';
    }
    if (!(child.signatureOid in SIGNATURE_DIGESTS)) return 'unsupported';
    return verify(SIGNATURE_DIGESTS[child.signatureOid], child.tbs, key, child.signature) ? 'ok' : 'bad';
  } catch {
    // A key of the wrong type for the algorithm, or a malformed signature value.
    return 'bad';
  }
}
