/**
 * Object-storage endpoints recognised in names and URLs seen on a workspace's assets: S3
 * virtual-hosted and path-style, Google Cloud Storage, Azure Blob accounts. The asset id is the
 * bucket's URL, so the same bucket seen both ways is one asset only when written the same way.
 */
export interface BucketEndpoint {
  /** `https://<bucket>.s3.amazonaws.com`, `https://storage.googleapis.com/<bucket>`, ... */
  readonly url: string;
  /** Provider name as /v1/clouds reports it. */
  readonly provider: 'Amazon AWS' | 'Google Cloud' | 'Microsoft Azure';
  readonly bucket: string;
  readonly accountId?: string;
}

const HOSTED: readonly { re: RegExp; provider: BucketEndpoint['provider']; account?: boolean }[] = [
  { re: /^([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])\.s3(?:[.-](?:dualstack\.)?[a-z0-9-]+)?\.amazonaws\.com$/, provider: 'Amazon AWS' },
  { re: /^([a-z0-9][a-z0-9._-]{1,61}[a-z0-9])\.storage\.googleapis\.com$/, provider: 'Google Cloud' },
  { re: /^([a-z0-9]{3,24})\.blob\.core\.windows\.net$/, provider: 'Microsoft Azure', account: true },
];

const PATH_STYLE: readonly { re: RegExp; provider: BucketEndpoint['provider'] }[] = [
  { re: /^s3(?:[.-][a-z0-9-]+)?\.amazonaws\.com$/, provider: 'Amazon AWS' },
  { re: /^storage\.googleapis\.com$/, provider: 'Google Cloud' },
];

/** The bucket a host name addresses (virtual-hosted style), if any. */
export function bucketOfName(name: string): BucketEndpoint | undefined {
  const n = name.toLowerCase();
  for (const h of HOSTED) {
    const m = h.re.exec(n);
    // `s3.amazonaws.com` itself and regional endpoints are not buckets.
    if (m && !/^s3([.-]|$)/.test(m[1])) {
      return { url: `https://${n}`, provider: h.provider, bucket: m[1], ...(h.account ? { accountId: m[1] } : {}) };
    }
  }
  return undefined;
}

const URL_RE = /https?:\/\/([a-z0-9.-]+\.(?:amazonaws\.com|googleapis\.com|windows\.net))(\/[a-z0-9._-]+)?/gi;

/** Buckets named by URLs in a piece of text (a redirect target, a page body). */
export function bucketsInText(text: string, max = 50): BucketEndpoint[] {
  const out = new Map<string, BucketEndpoint>();
  for (const m of text.matchAll(URL_RE)) {
    if (out.size >= max) break;
    const host = m[1].toLowerCase();
    const hosted = bucketOfName(host);
    if (hosted) {
      out.set(hosted.url, hosted);
      continue;
    }
    const path = m[2]?.slice(1).toLowerCase();
    const style = PATH_STYLE.find((p) => p.re.test(host));
    if (style && path && /^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/.test(path)) {
      const url = `https://${host}/${path}`;
      out.set(url, { url, provider: style.provider, bucket: path });
    }
  }
  return [...out.values()];
}
