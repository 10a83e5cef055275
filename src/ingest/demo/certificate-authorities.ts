/**
 * The demo PKI: invented organisations with a few root and issuing CAs. Keys come from the fixed
 * pool; dates are absolute so the hierarchy is the same whatever `now` the caller picks.
 */
import type { NameAttribute, SignatureHash } from './certificate-builder.ts';
import type { KeyPool, PoolKey } from './key-pool.ts';

export type CaLevel = 'DV' | 'OV' | 'EV' | 'internal';

export interface CaDefinition {
  readonly id: string;
  readonly subject: readonly NameAttribute[];
  readonly key: PoolKey;
  readonly parent?: string;
  readonly notBefore: string;
  readonly notAfter: string;
  readonly hash: SignatureHash;
  /** What the CA issues (issuing CAs only). */
  readonly level?: CaLevel;
  /** Validity of the leaves it issues, in days. */
  readonly leafDays?: number;
  readonly ocspUrl?: string;
  readonly issuerUrl?: string;
  readonly crlUrl?: string;
  /** The CA's own policy OID and CPS, added to leaves next to the CA/B Forum OID. */
  readonly policy?: { id: string; cps: string };
  /** Whether its leaves carry SCTs (publicly trusted CAs log to CT). */
  readonly ct: boolean;
}

export function demoCertificateAuthorities(keys: KeyPool): CaDefinition[] {
  const [nwRootKey, vdRootKey] = keys.roots;
  const c = keys.cas;
  const internalKey = keys.leafRsa[keys.leafRsa.length - 1];
  return [
    {
      id: 'nw-root',
      subject: [['C', 'US'], ['O', 'Northwind Trust Services'], ['CN', 'Northwind Trust Root CA X1']],
      key: nwRootKey,
      notBefore: '2015-06-04T11:04:38Z',
      notAfter: '2040-06-04T11:04:38Z',
      hash: 'sha384',
      ct: false,
    },
    {
      id: 'vd-root',
      subject: [['C', 'GB'], ['O', 'Veridane Ltd'], ['OU', 'Veridane Trust Network'], ['CN', 'Veridane Global Root G2']],
      key: vdRootKey,
      notBefore: '2012-03-01T00:00:00Z',
      notAfter: '2037-02-28T23:59:59Z',
      hash: 'sha256',
      ct: false,
    },
    {
      id: 'olc-root',
      subject: [['C', 'US'], ['O', 'Open Ledger Certificates'], ['CN', 'OLC Root R1']],
      key: c[0],
      notBefore: '2016-09-01T18:30:00Z',
      notAfter: '2036-09-01T18:30:00Z',
      hash: 'sha256',
      ct: false,
    },
    {
      id: 'hc-root',
      subject: [['C', 'DE'], ['O', 'Halcyon Sicherheit GmbH'], ['CN', 'Halcyon Root CA 2009']],
      key: c[1],
      notBefore: '2009-05-12T08:00:00Z',
      notAfter: '2029-05-12T08:00:00Z',
      hash: 'sha1',
      ct: false,
    },
    {
      id: 'bw-root',
      subject: [['C', 'US'], ['O', 'Brightwater Holdings'], ['OU', 'IT Security'], ['CN', 'Brightwater Internal Root CA']],
      key: c[2],
      notBefore: '2019-01-15T16:20:00Z',
      notAfter: '2039-01-15T16:20:00Z',
      hash: 'sha256',
      ct: false,
    },
    {
      id: 'nw-dv',
      parent: 'nw-root',
      subject: [['C', 'US'], ['O', 'Northwind Trust Services'], ['CN', 'Northwind RSA Domain Validation CA 2023']],
      key: c[3],
      notBefore: '2023-01-10T00:00:00Z',
      notAfter: '2031-01-09T23:59:59Z',
      hash: 'sha384',
      level: 'DV',
      leafDays: 398,
      ocspUrl: 'http://ocsp.nwtrust-pki.com',
      issuerUrl: 'http://crt.nwtrust-pki.com/NorthwindRSADVCA2023.crt',
      crlUrl: 'http://crl.nwtrust-pki.com/NorthwindRSADVCA2023.crl',
      policy: { id: '1.3.6.1.4.1.59012.1.2', cps: 'https://www.nwtrust-pki.com/repository' },
      ct: true,
    },
    {
      id: 'nw-ev',
      parent: 'nw-root',
      subject: [['C', 'US'], ['O', 'Northwind Trust Services'], ['CN', 'Northwind Extended Validation Server CA']],
      key: c[4],
      notBefore: '2020-11-02T00:00:00Z',
      notAfter: '2030-11-01T23:59:59Z',
      hash: 'sha256',
      level: 'EV',
      leafDays: 398,
      ocspUrl: 'http://ocsp.nwtrust-pki.com',
      issuerUrl: 'http://crt.nwtrust-pki.com/NorthwindEVServerCA.crt',
      crlUrl: 'http://crl.nwtrust-pki.com/NorthwindEVServerCA.crl',
      policy: { id: '1.3.6.1.4.1.59012.1.1', cps: 'https://www.nwtrust-pki.com/repository' },
      ct: true,
    },
    {
      id: 'vd-ov',
      parent: 'vd-root',
      subject: [
        ['C', 'GB'],
        ['ST', 'Greater Manchester'],
        ['L', 'Salford'],
        ['O', 'Veridane Ltd'],
        ['CN', 'Veridane RSA Organization Validation Secure Server CA'],
      ],
      key: c[5],
      notBefore: '2018-11-02T00:00:00Z',
      notAfter: '2030-12-31T23:59:59Z',
      hash: 'sha256',
      level: 'OV',
      leafDays: 398,
      ocspUrl: 'http://ocsp.veridane-ca.com',
      issuerUrl: 'http://crt.veridane-ca.com/VeridaneRSAOVSecureServerCA.crt',
      crlUrl: 'http://crl.veridane-ca.com/VeridaneRSAOVSecureServerCA.crl',
      policy: { id: '1.3.6.1.4.1.61177.1.2.1', cps: 'https://veridane-ca.com/CPS' },
      ct: true,
    },
    {
      id: 'vd-dv',
      parent: 'vd-root',
      subject: [
        ['C', 'GB'],
        ['ST', 'Greater Manchester'],
        ['L', 'Salford'],
        ['O', 'Veridane Ltd'],
        ['CN', 'Veridane RSA Domain Validation Secure Server CA'],
      ],
      key: c[6],
      notBefore: '2018-11-02T00:00:00Z',
      notAfter: '2030-12-31T23:59:59Z',
      hash: 'sha256',
      level: 'DV',
      leafDays: 398,
      ocspUrl: 'http://ocsp.veridane-ca.com',
      issuerUrl: 'http://crt.veridane-ca.com/VeridaneRSADVSecureServerCA.crt',
      crlUrl: 'http://crl.veridane-ca.com/VeridaneRSADVSecureServerCA.crl',
      policy: { id: '1.3.6.1.4.1.61177.1.2.7', cps: 'https://veridane-ca.com/CPS' },
      ct: true,
    },
    {
      id: 'olc-r11',
      parent: 'olc-root',
      subject: [['C', 'US'], ['O', 'Open Ledger Certificates'], ['CN', 'R11']],
      key: c[7],
      notBefore: '2024-03-13T00:00:00Z',
      notAfter: '2027-03-12T23:59:59Z',
      hash: 'sha256',
      level: 'DV',
      leafDays: 90,
      ocspUrl: 'http://r11.o.openledger-certs.org',
      issuerUrl: 'http://r11.i.openledger-certs.org/',
      ct: true,
    },
    {
      id: 'olc-r10',
      parent: 'olc-root',
      subject: [['C', 'US'], ['O', 'Open Ledger Certificates'], ['CN', 'R10']],
      key: c[8],
      notBefore: '2021-03-13T00:00:00Z',
      notAfter: '2025-09-12T23:59:59Z',
      hash: 'sha256',
      level: 'DV',
      leafDays: 90,
      ocspUrl: 'http://r10.o.openledger-certs.org',
      issuerUrl: 'http://r10.i.openledger-certs.org/',
      ct: true,
    },
    {
      id: 'hc-ov',
      parent: 'hc-root',
      subject: [['C', 'DE'], ['O', 'Halcyon Sicherheit GmbH'], ['CN', 'Halcyon Server CA 3']],
      key: c[9],
      notBefore: '2014-05-12T08:00:00Z',
      notAfter: '2028-05-12T08:00:00Z',
      hash: 'sha256',
      level: 'OV',
      leafDays: 398,
      ocspUrl: 'http://ocsp.halcyon-pki.de',
      issuerUrl: 'http://pki.halcyon-pki.de/HalcyonServerCA3.crt',
      crlUrl: 'http://pki.halcyon-pki.de/HalcyonServerCA3.crl',
      policy: { id: '1.3.6.1.4.1.48821.3.1', cps: 'https://www.halcyon-pki.de/cps' },
      ct: true,
    },
    {
      id: 'bw-issuing',
      parent: 'bw-root',
      subject: [['C', 'US'], ['O', 'Brightwater Holdings'], ['OU', 'IT Security'], ['CN', 'Brightwater Issuing CA 01']],
      key: internalKey,
      notBefore: '2019-01-20T16:20:00Z',
      notAfter: '2029-01-20T16:20:00Z',
      hash: 'sha256',
      level: 'internal',
      leafDays: 730,
      crlUrl: 'http://pki.brightwater.internal/BrightwaterIssuingCA01.crl',
      ct: false,
    },
  ];
}
