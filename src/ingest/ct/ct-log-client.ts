/**
 * An RFC 6962 §4 client for the two read endpoints ct-sync needs. Transient failures (429, 5xx,
 * network errors, timeouts) are retried with exponential backoff; everything else, and running
 * out of attempts, is an error value. Aborting through the signal stops at once.
 */

export interface SignedTreeHead {
  readonly tree_size: number;
  readonly timestamp: number;
  readonly sha256_root_hash: string;
  readonly tree_head_signature: string;
}

export interface RawCtEntry {
  readonly leaf_input: string;
  readonly extra_data: string;
}

export type CtResult<T> = { ok: true; value: T } | { ok: false; error: string; aborted?: boolean };

export interface CtLogClientOptions {
  /** Per-request timeout. Default 30 s. */
  readonly timeoutMs?: number;
  /** Attempts per request, the first included. Default 5. */
  readonly attempts?: number;
  /** First backoff delay, doubled on each retry (a 429's Retry-After wins when longer). Default 1 s. */
  readonly backoffMs?: number;
  /** Longest single wait. Default 60 s. */
  readonly maxBackoffMs?: number;
  readonly signal?: AbortSignal;
  /** Replaceable for tests. */
  readonly fetch?: typeof fetch;
  /** Called before each retry, e.g. to log it. */
  readonly onRetry?: (info: { url: string; attempt: number; reason: string; delayMs: number }) => void;
}

/** `https://ct.example/2025h1` → `https://ct.example/2025h1/` so relative endpoint paths resolve under it. */
export function normaliseLogUrl(url: string): string {
  const u = new URL(url.includes('://') ? url : `https://${url}`);
  if (!u.pathname.endsWith('/')) u.pathname += '/';
  u.search = '';
  u.hash = '';
  return u.toString();
}

function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export class CtLogClient {
  readonly logUrl: string;
  private readonly opts: Required<Omit<CtLogClientOptions, 'signal' | 'onRetry'>> & Pick<CtLogClientOptions, 'signal' | 'onRetry'>;

  constructor(logUrl: string, options: CtLogClientOptions = {}) {
    this.logUrl = normaliseLogUrl(logUrl);
    this.opts = {
      timeoutMs: options.timeoutMs ?? 30_000,
      attempts: Math.max(1, options.attempts ?? 5),
      backoffMs: options.backoffMs ?? 1000,
      maxBackoffMs: options.maxBackoffMs ?? 60_000,
      fetch: options.fetch ?? globalThis.fetch,
      signal: options.signal,
      onRetry: options.onRetry,
    };
  }

  async getSth(): Promise<CtResult<SignedTreeHead>> {
    const r = await this.getJson('ct/v1/get-sth');
    if (!r.ok) return r;
    const sth = r.value as Partial<SignedTreeHead> | null;
    if (!sth || typeof sth !== 'object' || !Number.isSafeInteger(sth.tree_size) || (sth.tree_size as number) < 0) {
      return { ok: false, error: 'get-sth answer has no valid tree_size' };
    }
    return { ok: true, value: sth as SignedTreeHead };
  }

  /**
   * Entries `start..end` inclusive. Logs may answer with fewer than asked (their own batch cap);
   * the caller continues from what it got. More than asked is cut to the range.
   */
  async getEntries(start: number, end: number): Promise<CtResult<RawCtEntry[]>> {
    const r = await this.getJson(`ct/v1/get-entries?start=${start}&end=${end}`);
    if (!r.ok) return r;
    const body = r.value as { entries?: unknown } | null;
    if (!body || typeof body !== 'object' || !Array.isArray(body.entries)) return { ok: false, error: 'get-entries answer has no entries array' };
    return { ok: true, value: (body.entries as RawCtEntry[]).slice(0, end - start + 1) };
  }

  private async getJson(path: string): Promise<CtResult<unknown>> {
    const url = new URL(path, this.logUrl).toString();
    const { signal } = this.opts;
    let lastError = '';
    for (let attempt = 1; attempt <= this.opts.attempts; attempt++) {
      if (signal?.aborted) return { ok: false, error: 'aborted', aborted: true };
      const timeout = AbortSignal.timeout(this.opts.timeoutMs);
      const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
      let retryAfterMs = 0;
      try {
        const res = await this.opts.fetch(url, { signal: combined, headers: { accept: 'application/json' } });
        if (res.ok) {
          const text = await res.text();
          try {
            return { ok: true, value: JSON.parse(text) as unknown };
          } catch {
            return { ok: false, error: `${url}: answer is not JSON` };
          }
        }
        await res.body?.cancel();
        lastError = `${url}: HTTP ${res.status}`;
        if (res.status !== 429 && res.status < 500) return { ok: false, error: lastError };
        const ra = Number(res.headers.get('retry-after'));
        if (Number.isFinite(ra) && ra > 0) retryAfterMs = ra * 1000;
      } catch (err) {
        if (signal?.aborted) return { ok: false, error: 'aborted', aborted: true };
        lastError = timeout.aborted ? `${url}: no answer within ${this.opts.timeoutMs} ms` : `${url}: ${err instanceof Error ? err.message : String(err)}`;
      }
      if (attempt === this.opts.attempts) break;
      const delayMs = Math.min(this.opts.maxBackoffMs, Math.max(retryAfterMs, this.opts.backoffMs * 2 ** (attempt - 1)));
      this.opts.onRetry?.({ url, attempt, reason: lastError, delayMs });
      if (!(await sleep(delayMs, signal))) return { ok: false, error: 'aborted', aborted: true };
    }
    return { ok: false, error: `${lastError} (gave up after ${this.opts.attempts} attempts)` };
  }
}
