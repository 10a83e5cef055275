/**
 * Demo certificates: the CA hierarchy, leaves for the demo domains (renewal chains, so older
 * ones are expired), device self-signed certificates and a few precertificate/final pairs. Every
 * document comes from parseCertificate on the built DER, the same path as imported certificates.
 */
import { createHash } from 'node:crypto';
import type { CertificateDocument } from '../x509/certificate-document.ts';
import { parseCertificate } from '../x509/parse-certificate.ts';
import { citiesOf } from '../enrich/cities.ts';
import {
  authorityInfoAccessExt,
  authorityKeyIdExt,
  basicConstraintsExt,
  buildCertificate,
  certificatePoliciesExt,
  crlDistributionPointsExt,
  ctPoisonExt,
  encodeName,
  extKeyUsageExt,
  keyUsageExt,
  KU,
  sctListExt,
  subjectAltNameExt,
  subjectKeyIdExt,
  type NameAttribute,
  type SctSpec,
} from './certificate-builder.ts';
import { demoCertificateAuthorities, type CaDefinition } from './certificate-authorities.ts';
import { HOST_LABELS, type DemoDomain } from './domains.ts';
import type { KeyPool, PoolKey } from './key-pool.ts';
import { Rng, WeightedTable, zipfWeights } from './rng.ts';

const DAY = 86_400_000;
/** Popularity skew of the demo domains (hosts use the same, so busy domains have many certificates). */
export const DOMAIN_ZIPF = 0.8;
const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const LEVEL_POLICY = { DV: '2.23.140.1.2.1', OV: '2.23.140.1.2.2', EV: '2.23.140.1.1' } as const;

export interface DemoCertificate {
  readonly der: Uint8Array;
  /** The parsed document, with added_at/modified_at set to when the demo "saw" it. */
  readonly doc: CertificateDocument;
  readonly role: 'root' | 'intermediate' | 'leaf';
  /** Demo domain a leaf was issued for (none for device self-signed certificates). */
  readonly domain?: string;
  /** SHA-256 of the issuing CA (intermediates and leaves issued by a CA). */
  readonly issuerFingerprint?: string;
  readonly notBefore: number;
  readonly notAfter: number;
}

/** What hosts need to pick the certificate they present. */
export interface CertificateIndex {
  /** Leaves (no precertificates) by SAN entry, wildcard entries included as `*.domain`; newest first. */
  readonly byName: Map<string, number[]>;
  /** Leaves by demo domain, newest first. */
  readonly byDomain: Map<string, number[]>;
  readonly selfSigned: number[];
  readonly leaves: number[];
}

// Sets of names a domain gets certificates for ({d} = the domain).
const NAME_SETS: readonly (readonly [readonly string[], number])[] = [
  [['{d}', 'www.{d}'], 35],
  [['*.{d}', '{d}'], 18],
  [['mail.{d}'], 6],
  [['mail.{d}', 'smtp.{d}', 'imap.{d}'], 3],
  [['api.{d}'], 6],
  [['app.{d}'], 5],
  [['vpn.{d}'], 4],
  [['portal.{d}'], 4],
  [['shop.{d}', 'www.shop.{d}'], 3],
  [['dev.{d}', 'staging.{d}'], 3],
  [['git.{d}'], 3],
  [['auth.{d}'], 3],
  [['cdn.{d}'], 2],
  [['{d}', 'www.{d}', 'app.{d}', 'api.{d}'], 4],
  [['{h}.{d}'], 14],
];

const PREFERRED_CA: readonly (readonly [string, number])[] = [
  ['olc-r11', 45],
  ['nw-dv', 14],
  ['vd-dv', 8],
  ['vd-ov', 10],
  ['hc-ov', 5],
  ['nw-ev', 3],
  ['bw-issuing', 5],
];

const FAKE_LOGS = ['arbor-2026', 'juniper-2026h2', 'quarry-2026', 'sable-2027'].map((n) =>
  createHash('sha256').update(`periscope demo CT log ${n}`).digest(),
);

function serial(rng: Rng): Buffer {
  const b = rng.bytes(16);
  b[0] = (b[0] & 0x7f) | 0x01;
  return b;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function fakeEcdsaSignature(rng: Rng): Buffer {
  return Buffer.concat([Buffer.from([0x30, 0x45, 0x02, 0x20]), rng.bytes(32), Buffer.from([0x02, 0x21, 0x00]), rng.bytes(32)]);
}

interface Issued {
  der: Buffer;
  role: DemoCertificate['role'];
  domain?: string;
  issuerFingerprint?: string;
  notBefore: number;
  notAfter: number;
  /** Precertificates are not presented by hosts. */
  precert: boolean;
  selfSigned: boolean;
  names: string[];
}

export function generateCertificates(options: {
  count: number;
  seed: number;
  now: Date;
  domains: readonly DemoDomain[];
  keys: KeyPool;
}): { certificates: DemoCertificate[]; index: CertificateIndex } {
  const { keys, now } = options;
  const nowMs = now.getTime();
  const rng = new Rng(options.seed).fork('certificates');
  const cas = demoCertificateAuthorities(keys);
  const byId = new Map(cas.map((c) => [c.id, c]));
  const issued: Issued[] = [];
  const caFingerprint = new Map<string, string>();
  const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
  const leafKeys = keys.leafRsa.slice(0, -1);

  // CAs: roots first so intermediates can name their parent's key and fingerprint.
  for (const ca of cas) {
    const parent = ca.parent ? byId.get(ca.parent)! : undefined;
    const signer = parent ?? ca;
    const exts: Buffer[] = [
      keyUsageExt(parent ? [KU.digitalSignature, KU.keyCertSign, KU.cRLSign] : [KU.keyCertSign, KU.cRLSign]),
      basicConstraintsExt(true, parent ? 0 : undefined),
      subjectKeyIdExt(ca.key.keyId),
    ];
    if (parent) {
      exts.push(extKeyUsageExt([SERVER_AUTH, CLIENT_AUTH]), authorityKeyIdExt(parent.key.keyId));
      if (parent.id !== 'bw-root') exts.push(authorityInfoAccessExt(undefined, `http://pki.${ca.id.split('-')[0]}-roots.com/${parent.id}.crt`));
      exts.push(crlDistributionPointsExt(`http://crl.${ca.id.split('-')[0]}-roots.com/${parent.id}.crl`));
      exts.push(certificatePoliciesExt([{ id: '2.5.29.32.0' }]));
    }
    const nb = Date.parse(ca.notBefore);
    const na = Date.parse(ca.notAfter);
    const der = buildCertificate({
      serial: serial(rng),
      issuer: encodeName(signer.subject),
      subject: encodeName(ca.subject),
      notBefore: nb,
      notAfter: na,
      spki: ca.key.spki,
      extensions: exts,
      signer: signer.key.privateKey,
      hash: signer.hash,
    });
    const fp = sha256(der);
    caFingerprint.set(ca.id, fp);
    issued.push({
      der,
      role: parent ? 'intermediate' : 'root',
      ...(parent ? { issuerFingerprint: caFingerprint.get(parent.id)! } : {}),
      notBefore: nb,
      notAfter: na,
      precert: false,
      selfSigned: !parent,
      names: [],
    });
  }

  const companies = options.domains.filter((d) => d.kind === 'company');
  const domainWeights = zipfWeights(companies.length, DOMAIN_ZIPF);
  const domainTable = new WeightedTable(companies.map((d, i) => [d, domainWeights[i]] as const));
  const preferred = new Map<string, string>();
  const renewals = new Map<string, number>();
  const nameSetTable = new WeightedTable(NAME_SETS);
  const caTable = new WeightedTable(PREFERRED_CA);

  const leafSubject = (ca: CaDefinition, domain: DemoDomain, cn: string, r: Rng): NameAttribute[] => {
    const city = citiesOf(domain.country)[0];
    const place: NameAttribute[] = city
      ? [...(city.province ? [['ST', city.province] as NameAttribute] : []), ['L', city.city]]
      : [];
    switch (ca.level) {
      case 'EV':
        return [
          ['jurisdictionC', domain.country],
          ['businessCategory', 'Private Organization'],
          ['serialNumber', String(r.range(1_000_000, 9_999_999))],
          ['C', domain.country],
          ...place,
          ['O', domain.org],
          ['CN', cn],
        ];
      case 'OV':
        return [['C', domain.country], ...place, ['O', domain.org], ['CN', cn]];
      case 'internal':
        return [['C', 'US'], ['O', 'Brightwater Holdings'], ['OU', 'IT Security'], ['CN', cn]];
      default:
        return [['CN', cn]];
    }
  };

  const issueLeaf = (precertPair: boolean): void => {
    const domain = domainTable.sample(rng);
    let caId = preferred.get(domain.name);
    if (!caId) {
      caId = caTable.sample(rng);
      preferred.set(domain.name, caId);
    }
    if (rng.chance(0.1)) caId = caTable.sample(rng);
    if (precertPair && caId === 'bw-issuing') caId = 'olc-r11';
    const label = rng.pick(HOST_LABELS);
    const set = nameSetTable.sample(rng).map((n) => n.replace('{d}', domain.name).replace('{h}', label));
    const key = `${domain.name}|${set.join(',')}`;
    const generation = renewals.get(key) ?? 0;
    renewals.set(key, generation + 1);
    let ca = byId.get(caId)!;
    const days = ca.leafDays!;
    let nb = nowMs - Math.floor((generation * days * 0.7 + rng.next() * days * 0.6) * DAY) - rng.int(DAY);
    // Older renewals of the OLC chain came from its previous issuing CA.
    if (ca.id === 'olc-r11' && nb < Date.parse(ca.notBefore)) ca = byId.get('olc-r10')!;
    const caNb = Date.parse(ca.notBefore);
    const caNa = Date.parse(ca.notAfter);
    if (nb < caNb) nb = caNb + rng.int(30) * DAY;
    if (nb > caNa - DAY) nb = caNa - days * DAY - rng.int(30) * DAY;
    nb = Math.floor(nb / 1000) * 1000;
    let na = ca.leafDays === 90 ? nb + days * DAY - 1000 : nb + days * DAY;
    if (na > caNa) na = caNa;
    const subjectKey: PoolKey = rng.chance(0.6) ? rng.pick(leafKeys) : rng.pick(keys.leafEc);
    const exts: Buffer[] = [
      keyUsageExt(subjectKey.kind === 'rsa' ? [KU.digitalSignature, KU.keyEncipherment] : [KU.digitalSignature]),
      extKeyUsageExt(ca.level === 'internal' ? [SERVER_AUTH] : [SERVER_AUTH, CLIENT_AUTH]),
      basicConstraintsExt(false),
      subjectKeyIdExt(subjectKey.keyId),
      authorityKeyIdExt(ca.key.keyId),
    ];
    if (ca.ocspUrl || ca.issuerUrl) exts.push(authorityInfoAccessExt(ca.ocspUrl, ca.issuerUrl));
    exts.push(subjectAltNameExt(set));
    if (ca.level && ca.level !== 'internal') {
      const policies: { id: string; cps?: string }[] = [{ id: LEVEL_POLICY[ca.level] }];
      if (ca.policy) policies.push(ca.policy);
      exts.push(certificatePoliciesExt(policies));
    }
    if (ca.crlUrl) exts.push(crlDistributionPointsExt(ca.crlUrl));
    const common = {
      serial: serial(rng),
      issuer: encodeName(ca.subject),
      subject: encodeName(leafSubject(ca, domain, set[0], rng)),
      notBefore: nb,
      notAfter: na,
      spki: subjectKey.spki,
      signer: ca.key.privateKey,
      hash: ca.hash,
    };
    const base = { role: 'leaf' as const, domain: domain.name, issuerFingerprint: caFingerprint.get(ca.id)!, notBefore: nb, notAfter: na, selfSigned: false, names: set };
    if (precertPair) {
      issued.push({ ...base, der: buildCertificate({ ...common, extensions: [...exts, ctPoisonExt()] }), precert: true });
    }
    if (ca.ct) {
      const logs = rng.shuffle([...FAKE_LOGS]).slice(0, rng.chance(0.7) ? 2 : 3);
      const scts: SctSpec[] = logs.map((logId) => ({
        logId,
        timestampMs: nb + 3_600_000 + rng.int(120_000),
        signature: fakeEcdsaSignature(rng),
      }));
      exts.push(sctListExt(scts));
    }
    issued.push({ ...base, der: buildCertificate({ ...common, extensions: exts }), precert: false });
  };

  const DEVICE_SUBJECTS: readonly (readonly [readonly NameAttribute[], readonly string[] | null])[] = [
    [[['C', 'AU'], ['ST', 'Some-State'], ['O', 'Internet Widgits Pty Ltd'], ['CN', 'localhost']], null],
    [[['CN', 'localhost']], ['localhost']],
    [[['C', 'XX'], ['L', 'Default City'], ['O', 'Default Company Ltd'], ['CN', 'localhost.localdomain']], null],
    [[['CN', 'router.lan']], ['router.lan']],
    [[['O', 'Home Gateway'], ['CN', 'gateway.home']], ['gateway.home']],
    [[['C', 'US'], ['O', 'NAS Appliance'], ['OU', 'Storage'], ['CN', 'nas.local']], ['nas.local']],
    [[['CN', 'printer.local']], null],
    [[['C', 'US'], ['ST', 'California'], ['O', 'Camera Systems'], ['CN', 'ipcam']], null],
    [[['CN', 'vpn-gateway']], null],
    [[['O', 'Remote Access Appliance'], ['CN', 'sslvpn']], null],
  ];

  const issueSelfSigned = (): void => {
    const subjectKey = rng.pick(leafKeys);
    const [subjectAttrs, sans] = rng.pick(DEVICE_SUBJECTS);
    let attrs = subjectAttrs;
    let names = sans ? [...sans] : [];
    // Some devices put a company name (from the demo domains) in their certificate.
    if (rng.chance(0.25)) {
      const d = domainTable.sample(rng);
      const host = `${rng.pick(['nas', 'fw', 'gw', 'vpn', 'cam', 'idrac', 'ilo', 'esxi'])}${rng.range(1, 9)}.${d.name}`;
      attrs = [['O', d.org], ['CN', host]];
      names = rng.chance(0.6) ? [host] : [];
    }
    const days = rng.pick([365, 365, 730, 825, 1095, 3650, 7300]);
    const nb = Math.floor((nowMs - rng.int(6 * 365) * DAY - rng.int(DAY)) / 1000) * 1000;
    const exts: Buffer[] = [];
    const style = rng.int(3);
    if (style === 0) exts.push(subjectKeyIdExt(subjectKey.keyId), authorityKeyIdExt(subjectKey.keyId), basicConstraintsExt(true));
    if (names.length) exts.push(subjectAltNameExt(names));
    const name = encodeName(attrs);
    const der = buildCertificate({
      serial: serial(rng),
      issuer: name,
      subject: name,
      notBefore: nb,
      notAfter: nb + days * DAY,
      spki: subjectKey.spki,
      extensions: exts,
      signer: subjectKey.privateKey,
      hash: 'sha256',
    });
    issued.push({ der, role: 'leaf', notBefore: nb, notAfter: nb + days * DAY, precert: false, selfSigned: true, names });
  };

  while (issued.length < options.count) {
    const left = options.count - issued.length;
    const r = rng.next();
    if (r < 0.07) issueSelfSigned();
    else if (r < 0.085 && left >= 2) issueLeaf(true);
    else issueLeaf(false);
  }

  const certificates: DemoCertificate[] = issued.map((c) => {
    const parsed = parseCertificate(c.der, { now });
    if (!parsed.ok) throw new Error(`demo certificate does not parse: ${parsed.error}`);
    const seenAt = Math.min(nowMs, Math.max(c.notBefore, nowMs - 5 * 365 * DAY) + 2 * 3_600_000);
    const doc: CertificateDocument = { ...parsed.doc, added_at: iso(seenAt), modified_at: iso(seenAt) };
    return {
      der: new Uint8Array(c.der),
      doc,
      role: c.role,
      ...(c.domain ? { domain: c.domain } : {}),
      ...(c.issuerFingerprint ? { issuerFingerprint: c.issuerFingerprint } : {}),
      notBefore: c.notBefore,
      notAfter: c.notAfter,
    };
  });

  const byName = new Map<string, number[]>();
  const byDomain = new Map<string, number[]>();
  const selfSigned: number[] = [];
  const leaves: number[] = [];
  issued.forEach((c, i) => {
    if (c.role !== 'leaf' || c.precert) return;
    leaves.push(i);
    if (c.selfSigned) selfSigned.push(i);
    for (const n of c.names) {
      const list = byName.get(n);
      if (list) list.push(i);
      else byName.set(n, [i]);
    }
    if (c.domain) {
      const list = byDomain.get(c.domain);
      if (list) list.push(i);
      else byDomain.set(c.domain, [i]);
    }
  });
  const newestFirst = (a: number, b: number): number => issued[b].notBefore - issued[a].notBefore || a - b;
  for (const list of byName.values()) list.sort(newestFirst);
  for (const list of byDomain.values()) list.sort(newestFirst);
  return { certificates, index: { byName, byDomain, selfSigned, leaves } };
}
