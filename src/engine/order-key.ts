import type { IndexName } from '../model/field-def.ts';
import { fastIpKey } from './reference/typed-value.ts';

/** See SearchEngine: hosts order by address then virtual-host name; certificates by fingerprint. */
export function orderKeyFor(index: IndexName, id: string): string {
  if (index === 'certificates') return id.toLowerCase();
  const plus = id.indexOf('+');
  const ip = plus < 0 ? id : id.slice(0, plus);
  // Most ids are plain dotted quads: ipaddr.js parsing was about 5% of indexing a document.
  const key = fastIpKey(ip) ?? ip;
  return plus < 0 ? key : `${key}+${id.slice(plus + 1)}`;
}
