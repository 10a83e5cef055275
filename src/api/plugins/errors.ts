/**
 * Every error leaves as Censys-shaped JSON: problems from use cases, schema validation failures,
 * malformed bodies, unknown routes, and bugs (logged with their stack, answered with a generic 500).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError, type Problem } from '../../lib/problem.ts';
import { problemBody, statusOf, type ApiFamily } from '../problem-status.ts';
import { CorruptSegmentError, EngineUnavailableError } from '../../engine/index.ts';

/** ASM paths (contract §2B); an unknown route under them still answers in the ASM shape. */
const ASM_PATH = /^\/api\/(v1\/(seeds|assets|logbook|logbook-cursor|clouds|risks)|v2\/risk-|inventory\/|beta\/|integrations\/)/;

export function familyOf(request: FastifyRequest): ApiFamily {
  const configured = request.routeOptions?.config?.family;
  if (configured) return configured;
  const path = request.url.split('?')[0];
  if (ASM_PATH.test(path)) return 'asm';
  if (/^\/api\/v1\/(search|view|report|bulk|data)\b/.test(path)) return 'search-v1';
  // An unknown path from an ASM client (it always sends its key) is answered the way it reads errors.
  return request.headers['censys-api-key'] !== undefined ? 'asm' : 'search';
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, problem: Problem): FastifyReply {
  const family = familyOf(request);
  const status = statusOf(family, problem);
  if (problem.retryAfter !== undefined) reply.header('Retry-After', String(Math.max(1, Math.ceil(problem.retryAfter))));
  return reply.code(status).type('application/json').send(problemBody(family, problem, status));
}

function describeValidation(error: FastifyError): string {
  const v = error.validation?.[0];
  if (!v) return error.message;
  const where = error.validationContext ?? 'request';
  const path = v.instancePath ? v.instancePath.replace(/^\//, '').replace(/\//g, '.') : '';
  const param = (v.params as { missingProperty?: string; additionalProperty?: string } | undefined) ?? {};
  const name = path || param.missingProperty || param.additionalProperty || '';
  return `Invalid ${where}${name ? ` parameter '${name}'` : ''}: ${v.message ?? 'invalid value'}`;
}

/** The ASM 10008 details: AJV-style errors with a `dataPath` such as `.seeds[0].type`. */
function ajvDetails(error: FastifyError, message: string): Record<string, unknown> {
  const where = error.validationContext ?? 'body';
  const errors = (error.validation ?? []).map((v) => ({
    keyword: v.keyword,
    dataPath: `${where === 'body' ? '' : `.${where}`}${(v.instancePath ?? '').split('/').slice(1).map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('')}`,
    schemaPath: v.schemaPath,
    params: v.params,
    message: v.message ?? 'invalid value',
  }));
  return { message, errors };
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ProblemError) return sendProblem(request, reply, error.problem);
    if (error.validation) {
      const message = describeValidation(error);
      return sendProblem(request, reply, { code: 'invalid_request', message, details: familyOf(request) === 'asm' ? ajvDetails(error, message) : undefined });
    }
    const code = error.code ?? '';
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendProblem(request, reply, { code: 'payload_too_large', message: 'Request body is too large' });
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return sendProblem(request, reply, { code: 'unsupported_media_type', message: 'Send request bodies as application/json' });
    }
    if (code.startsWith('FST_ERR_CTP') || (error.statusCode === 400 && error instanceof SyntaxError)) {
      return sendProblem(request, reply, { code: 'invalid_request', message: `Malformed request body: ${error.message}` });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendProblem(request, reply, { code: error.statusCode === 404 ? 'not_found' : 'invalid_request', message: error.message });
    }
    // A damaged segment was found while serving: the index is reloading from the store; answer
    // 503 with Retry-After rather than a partial answer or a 500.
    if (error instanceof EngineUnavailableError || error instanceof CorruptSegmentError) {
      request.log.warn({ err: error }, 'search index unavailable');
      return sendProblem(request, reply, {
        code: 'unavailable',
        message: 'The search index is being rebuilt from the store; try again shortly',
        retryAfter: 5,
      });
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(request, reply, { code: 'internal', message: 'An unexpected error occurred. Please try again later.' });
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(request, reply, { code: 'not_found', message: `No such endpoint: ${request.method} ${request.url.split('?')[0]}` }),
  );
}

/** JSON bodies, where an empty body means an empty object. */
export function registerJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    // Clients send Content-Type: application/json with no body (contract §1.3): that is {}.
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch (e) {
      done(new ProblemError({ code: 'invalid_request', message: `Malformed JSON body: ${(e as Error).message}`, asmCode: 10067 }), undefined);
    }
  });
}
