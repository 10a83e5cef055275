/**
 * Cloud providers by the AS numbers they announce their customer address space from. The names are
 * the ones the Censys ASM API uses for `cloudProvider` ("Amazon AWS", "Google Cloud", …) so the
 * two APIs agree. Only networks whose addresses are mostly rented compute belong here; a
 * provider's corporate or CDN-only ASNs are left out on purpose.
 */

/** When this table was last revised (it is code, so its "build date" is the date of that edit). */
export const CLOUD_ASN_TABLE_DATE = '2026-11-22T00:00:00.000Z';

export const CLOUD_PROVIDERS = {
  aws: 'Amazon AWS',
  gcp: 'Google Cloud',
  azure: 'Microsoft Azure',
  oracle: 'Oracle Cloud',
  alibaba: 'Alibaba Cloud',
  digitalocean: 'DigitalOcean',
  linode: 'Akamai Linode',
  ovh: 'OVHcloud',
  hetzner: 'Hetzner',
  cloudflare: 'Cloudflare',
  tencent: 'Tencent Cloud',
  ibm: 'IBM Cloud',
  vultr: 'Vultr',
  scaleway: 'Scaleway',
  huawei: 'Huawei Cloud',
  contabo: 'Contabo',
  upcloud: 'UpCloud',
  fastly: 'Fastly',
} as const;

export type CloudProviderName = (typeof CLOUD_PROVIDERS)[keyof typeof CLOUD_PROVIDERS];

const P = CLOUD_PROVIDERS;

const BY_ASN: ReadonlyMap<number, CloudProviderName> = new Map<number, CloudProviderName>([
  [16509, P.aws], [14618, P.aws], [8987, P.aws], [38895, P.aws], [39111, P.aws],
  [15169, P.gcp], [396982, P.gcp], [19527, P.gcp], [139070, P.gcp],
  [8075, P.azure], [8068, P.azure], [8069, P.azure],
  [31898, P.oracle], [792, P.oracle],
  [45102, P.alibaba], [37963, P.alibaba], [45103, P.alibaba], [134963, P.alibaba],
  [14061, P.digitalocean], [393406, P.digitalocean],
  [63949, P.linode],
  [16276, P.ovh], [35540, P.ovh],
  [24940, P.hetzner], [213230, P.hetzner], [212317, P.hetzner],
  [13335, P.cloudflare], [209242, P.cloudflare],
  [132203, P.tencent], [45090, P.tencent], [133478, P.tencent],
  [36351, P.ibm],
  [20473, P.vultr],
  [12876, P.scaleway],
  [136907, P.huawei], [55990, P.huawei],
  [51167, P.contabo],
  [202053, P.upcloud],
  [54113, P.fastly],
]);

/** The cloud provider announcing from `asn`, or undefined. */
export function cloudProviderOfAsn(asn: number): CloudProviderName | undefined {
  return BY_ASN.get(asn);
}

/** Number of AS numbers in the table (shown as the source's row count). */
export function cloudAsnCount(): number {
  return BY_ASN.size;
}
