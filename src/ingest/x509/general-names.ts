import ipaddr from 'ipaddr.js';
import type { GeneralNamesDoc } from './certificate-document.ts';
import {
  CLASS_CONTEXT,
  children,
  content,
  DerError,
  hexOf,
  readOid,
  readString,
  type Tlv,
} from './der-reader.ts';
import { parseName } from './distinguished-name.ts';

const latin1 = new TextDecoder('latin1');

export function ipBytesToText(bytes: Uint8Array): string | undefined {
  if (bytes.length !== 4 && bytes.length !== 16) return undefined;
  return ipaddr.fromByteArray(Array.from(bytes)).toString();
}

/** One GeneralName added into `out` (RFC 5280 §4.2.1.6). */
export function addGeneralName(buf: Uint8Array, gn: Tlv, out: GeneralNamesDoc): void {
  if (gn.cls !== CLASS_CONTEXT) throw new DerError(`expected a GeneralName at offset ${gn.start}`);
  const text = (): string => latin1.decode(content(buf, gn));
  switch (gn.tag) {
    case 0: {
      const [typeId, value] = children(buf, gn);
      if (!typeId) throw new DerError(`empty otherName at offset ${gn.start}`);
      let v = '';
      if (value) {
        const inner = value.constructed ? children(buf, value)[0] : undefined;
        v = (inner && readString(buf, inner)) ?? hexOf(content(buf, value));
      }
      (out.other_names ??= []).push({ id: readOid(buf, typeId), value: v });
      break;
    }
    case 1:
      (out.email_addresses ??= []).push(text());
      break;
    case 2:
      (out.dns_names ??= []).push(text());
      break;
    case 4: {
      const [name] = children(buf, gn);
      if (name) (out.directory_names ??= []).push(parseName(buf, name).parts);
      break;
    }
    case 5: {
      const entry: { name_assigner?: string; party_name?: string } = {};
      for (const c of children(buf, gn)) {
        const inner = c.constructed ? children(buf, c)[0] : undefined;
        const s = inner ? readString(buf, inner) : latin1.decode(content(buf, c));
        if (c.tag === 0 && s !== undefined) entry.name_assigner = s;
        if (c.tag === 1 && s !== undefined) entry.party_name = s;
      }
      (out.edi_party_names ??= []).push(entry);
      break;
    }
    case 6:
      (out.uniform_resource_identifiers ??= []).push(text());
      break;
    case 7: {
      const ip = ipBytesToText(content(buf, gn));
      if (ip) (out.ip_addresses ??= []).push(ip);
      break;
    }
    case 8:
      (out.registered_ids ??= []).push(readOid(buf, gn));
      break;
    default:
      // x400Address (3) has no Censys field.
      break;
  }
}

export function parseGeneralNames(buf: Uint8Array, seqOrImplicit: Tlv): GeneralNamesDoc {
  const out: GeneralNamesDoc = {};
  for (const gn of children(buf, seqOrImplicit)) addGeneralName(buf, gn, out);
  return out;
}
