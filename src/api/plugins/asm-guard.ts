/**
 * The ASM API's door: the `Censys-Api-Key` header names the caller, whose workspace then scopes
 * everything the handler does, and a per-user rate limit applies. It runs on request, before the
 * body is validated, so a client without a key hears about the key first (contract §1.2).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Authenticator } from '../../users/accounts.ts';
import { ProblemError } from '../../lib/problem.ts';
import { RateLimiter, type RateLimit } from './guard.ts';

export interface AsmGuardOptions {
  readonly auth: Authenticator;
  readonly rateLimit: RateLimit;
}

function headerValue(request: FastifyRequest): string | undefined {
  const raw = request.headers['censys-api-key'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  const key = value?.trim();
  return key ? key : undefined;
}

export function registerAsmGuard(app: FastifyInstance, options: AsmGuardOptions): void {
  // Its own budget: ASM calls do not eat into a user's Search rate, nor the other way round.
  const limiter = new RateLimiter(options.rateLimit);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (request.routeOptions.config.auth !== 'asm') return;
    const key = headerValue(request);
    if (!key) {
      throw new ProblemError({
        code: 'unauthorized',
        asmCode: 10000,
        message: 'Send your ASM API key in the Censys-Api-Key header.',
      });
    }
    const user = await options.auth.asmKey(key);
    if (!user) {
      throw new ProblemError({ code: 'unauthorized', asmCode: 10001, message: 'The Censys-Api-Key header does not name a valid ASM API key.' });
    }
    request.caller = user;
    const wait = limiter.take(user.id);
    if (wait > 0) {
      const { requests, windowSeconds } = options.rateLimit;
      const message = `At most ${requests} requests every ${windowSeconds} s; retry in ${wait} s.`;
      throw new ProblemError({
        code: 'rate_limited',
        message,
        retryAfter: wait,
        details: { maxRequests: requests, period: windowSeconds, message },
      });
    }
  });
}
