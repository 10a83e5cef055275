/**
 * Authentication, the per-user rate limit and the query quota, in that order, before a handler
 * runs. Routes opt in through their config (`auth`, `quota`). Queries are counted in memory and
 * written in batches (users/quota-meter.ts); a request to a route without a quota (such as
 * /v1/account) first writes the caller's pending counts, so it reads them from the store exactly.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { User } from '../../store/store.ts';
import type { Store } from '../../store/store.ts';
import type { Authenticator } from '../../users/accounts.ts';
import { QuotaMeter } from '../../users/quota-meter.ts';
import { ProblemError } from '../../lib/problem.ts';

declare module 'fastify' {
  interface FastifyRequest {
    caller?: User;
  }
}

export interface RateLimit {
  /** Requests allowed per user in each window; 0 disables the limit. */
  readonly requests: number;
  readonly windowSeconds: number;
}

/** A fixed window per user: simple, predictable, and its Retry-After is exact. */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly limit: RateLimit) {}

  /** Seconds to wait, or 0 when the request may go ahead. */
  take(key: string, now = Date.now()): number {
    if (this.limit.requests <= 0) return 0;
    const span = this.limit.windowSeconds * 1000;
    let w = this.windows.get(key);
    if (!w || now - w.start >= span) {
      if (this.windows.size > 100_000) this.windows.clear();
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    if (w.count >= this.limit.requests) return Math.max(1, Math.ceil((w.start + span - now) / 1000));
    w.count++;
    return 0;
  }
}

export function quotaPeriod(now: Date): string {
  return now.toISOString().slice(0, 7);
}

export function quotaResetsAt(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

function parseBasic(header: string | undefined): { id: string; secret: string } | undefined {
  if (!header) return undefined;
  const m = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!m) return undefined;
  const text = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  return { id: text.slice(0, colon), secret: text.slice(colon + 1) };
}

export interface GuardOptions {
  readonly store: Store;
  readonly auth: Authenticator;
  readonly rateLimit: RateLimit;
  readonly now: () => Date;
}

export function registerGuard(app: FastifyInstance, options: GuardOptions): void {
  const limiter = new RateLimiter(options.rateLimit);
  const touched = new Set<string>();
  const meter = new QuotaMeter(options.store);
  app.addHook('onClose', async () => {
    await meter.flush().catch((err: unknown) => app.log.error({ err }, 'writing quota usage failed'));
  });
  app.addHook('preHandler', async (request: FastifyRequest) => {
    const config = request.routeOptions.config;
    if (config.auth !== 'basic') return;
    const creds = parseBasic(request.headers.authorization);
    if (!creds) {
      throw new ProblemError({ code: 'unauthorized', message: 'You must authenticate with a valid API ID and secret.' });
    }
    const user = await options.auth.basic(creds.id, creds.secret);
    if (!user) throw new ProblemError({ code: 'unauthorized', message: 'You must authenticate with a valid API ID and secret.' });
    request.caller = user;
    const wait = limiter.take(user.id);
    if (wait > 0) {
      throw new ProblemError({
        code: 'rate_limited',
        message: `Rate limit exceeded: at most ${options.rateLimit.requests} requests per ${options.rateLimit.windowSeconds} s. Retry in ${wait} s.`,
        retryAfter: wait,
      });
    }
    const now = options.now();
    if (!touched.has(user.id)) {
      // Login times matter to /v1/account; recording them once per process start is enough.
      touched.add(user.id);
      await options.store.users.touchLogin(user.id, now.toISOString());
    }
    if (config.quota) {
      if (!(await meter.take(user.id, quotaPeriod(now), user.quotaAllowance))) {
        throw new ProblemError({ code: 'quota_exceeded', message: 'You have used your full quota for this billing period.' });
      }
    } else {
      await meter.flush(user.id);
    }
  });
}
