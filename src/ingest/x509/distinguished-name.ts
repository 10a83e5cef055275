import type { DistinguishedNameParts } from './certificate-document.ts';
import { children, DerError, expect, hexOf, raw, readOid, readString, TAG_OID, TAG_SEQUENCE, TAG_SET, type Tlv } from './der-reader.ts';
import { NAME_ATTRIBUTES } from './oids.ts';

export interface ParsedName {
  /** Censys form: attributes in encoded order, `SHORT=value` joined by ", " (e.g. `C=US, O=Example, CN=R3`). */
  readonly dn: string;
  readonly parts: DistinguishedNameParts;
}

/** Reads an X.501 Name (SEQUENCE OF SET OF AttributeTypeAndValue). */
export function parseName(buf: Uint8Array, name: Tlv): ParsedName {
  expect(name, TAG_SEQUENCE, 'Name');
  const pieces: string[] = [];
  const parts: Record<string, string[]> = {};
  for (const rdn of children(buf, name)) {
    expect(rdn, TAG_SET, 'RelativeDistinguishedName');
    for (const atv of children(buf, rdn)) {
      expect(atv, TAG_SEQUENCE, 'AttributeTypeAndValue');
      const [typeTlv, valueTlv] = children(buf, atv);
      if (!valueTlv) throw new DerError(`attribute without value at offset ${atv.start}`);
      const type = readOid(buf, expect(typeTlv, TAG_OID, 'attribute type'));
      const text = readString(buf, valueTlv) ?? '#' + hexOf(raw(buf, valueTlv));
      const known = NAME_ATTRIBUTES[type];
      pieces.push(`${known ? known.short : type}=${text}`);
      if (known?.key) (parts[known.key] ??= []).push(text);
    }
  }
  return { dn: pieces.join(', '), parts: parts as DistinguishedNameParts };
}
