/**
 * Deterministic invented domains: organisations' domains (forward names and certificate SANs)
 * and providers' domains (reverse DNS). Built from word lists, so they read like real names.
 */
import { Rng } from './rng.ts';

export interface DemoDomain {
  readonly name: string;
  /** The organisation that owns it (used in OV/EV certificate subjects and page titles). */
  readonly org: string;
  /** Country of the organisation (from its top-level domain). */
  readonly country: string;
  readonly kind: 'company' | 'provider';
}

/** First labels of host names under a domain (web01.example.com), shared by certificates and hosts. */
export const HOST_LABELS: readonly string[] = [
  'web01', 'web02', 'web03', 'srv1', 'srv2', 'node1', 'node2', 'edge', 'lb1', 'proxy', 'intranet', 'status', 'docs',
  'blog', 'crm', 'erp', 'helpdesk', 'wiki', 'jira', 'grafana', 'kibana', 'monitor', 'backup', 'owa', 'remote', 'sso',
  'id', 'files', 'cloud', 'test', 'uat', 'beta',
];

const PREFIXES = [
  'acme', 'blue', 'north', 'silver', 'summit', 'bright', 'red', 'green', 'iron', 'cedar', 'maple', 'oak', 'pine', 'river',
  'harbor', 'falcon', 'eagle', 'orbit', 'nova', 'lunar', 'solar', 'alpine', 'coastal', 'prairie', 'granite', 'copper',
  'golden', 'crystal', 'atlas', 'vertex', 'zenith', 'apex', 'pioneer', 'frontier', 'horizon', 'meridian', 'polar',
  'sterling', 'union', 'liberty', 'metro', 'urban', 'rapid', 'swift', 'clear', 'true', 'prime', 'first', 'grand',
  'kestrel', 'heron', 'lynx', 'otter', 'willow', 'aspen', 'birch', 'elm', 'juniper', 'sable', 'cobalt', 'indigo',
  'amber', 'ember', 'quartz', 'basalt', 'delta', 'sigma', 'omega', 'helix', 'quantum', 'vector', 'pixel', 'nimbus',
];

const INDUSTRIES = [
  'logistics', 'analytics', 'dental', 'bakery', 'media', 'labs', 'systems', 'cloud', 'energy', 'foods', 'legal',
  'travel', 'motors', 'clinic', 'studio', 'finance', 'health', 'realty', 'games', 'security', 'networks', 'capital',
  'design', 'robotics', 'pharma', 'consulting', 'insurance', 'freight', 'outdoor', 'apparel', 'brewing', 'coffee',
  'academy', 'school', 'hotel', 'resorts', 'builders', 'electric', 'plumbing', 'farms', 'wines', 'optics', 'audio',
  'software', 'data', 'telecom', 'marine', 'aviation', 'medical', 'vet', 'fitness', 'books', 'print', 'solutions',
];

const PROVIDER_WORDS = ['hosting', 'host', 'net', 'isp', 'broadband', 'telecom', 'fiber', 'dc', 'cloud', 'online', 'link', 'web'];

// top-level domain, weight, country of the owner, company suffix
const TLDS: readonly (readonly [string, number, string, string])[] = [
  ['com', 40, 'US', 'Inc.'],
  ['net', 8, 'US', 'LLC'],
  ['org', 5, 'US', 'Foundation'],
  ['io', 6, 'US', 'Inc.'],
  ['de', 6, 'DE', 'GmbH'],
  ['co.uk', 4, 'GB', 'Ltd'],
  ['fr', 3, 'FR', 'SAS'],
  ['nl', 3, 'NL', 'B.V.'],
  ['jp', 2, 'JP', 'K.K.'],
  ['com.br', 2, 'BR', 'Ltda.'],
  ['ru', 2, 'RU', 'LLC'],
  ['it', 2, 'IT', 'S.r.l.'],
  ['es', 2, 'ES', 'S.L.'],
  ['ca', 2, 'CA', 'Inc.'],
  ['com.au', 2, 'AU', 'Pty Ltd'],
  ['pl', 1, 'PL', 'Sp. z o.o.'],
  ['se', 1, 'SE', 'AB'],
  ['ch', 1, 'CH', 'AG'],
  ['in', 1, 'IN', 'Pvt Ltd'],
  ['sg', 1, 'SG', 'Pte Ltd'],
];

const cap = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

/** `count` organisation domains followed by `providers` provider domains; same seed → same list. */
export function makeDomains(seed: number, count = 260, providers = 40): DemoDomain[] {
  const rng = new Rng(seed).fork('domains');
  const out: DemoDomain[] = [];
  const seen = new Set<string>();
  while (out.length < count) {
    const p = rng.pick(PREFIXES);
    const ind = rng.pick(INDUSTRIES);
    const [tld, , country, suffix] = rng.weighted(TLDS.map((t) => [t, t[1]] as const));
    const style = rng.int(3);
    const label = style === 0 ? `${p}-${ind}` : style === 1 ? `${p}${ind}` : `${p}-${ind}-group`;
    const name = `${label}.${tld}`;
    if (seen.has(name)) continue;
    seen.add(name);
    const org = `${cap(p)} ${cap(ind)}${style === 2 ? ' Group' : ''} ${suffix}`;
    out.push({ name, org, country, kind: 'company' });
  }
  let made = 0;
  while (made < providers) {
    const p = rng.pick(PREFIXES);
    const w = rng.pick(PROVIDER_WORDS);
    const tld = rng.weighted([['net', 6], ['com', 3], ['de', 1], ['nl', 1], ['co.uk', 1]] as const);
    const name = `${p}${rng.chance(0.5) ? '-' : ''}${w}.${tld}`;
    if (seen.has(name)) continue;
    seen.add(name);
    out.push({ name, org: `${cap(p)} ${w === 'isp' || w === 'dc' ? w.toUpperCase() : cap(w)} Networks`, country: 'US', kind: 'provider' });
    made++;
  }
  return out;
}
