import type { FastifyReply } from 'fastify';
import type { Result } from '../lib/problem.ts';
import { unwrap } from '../lib/problem.ts';
import { searchPageJson, type SearchPage } from '../search/search-documents.ts';

/** Search v2 success envelope (contract §1.8). */
export function v2<T>(result: T): { code: 200; status: 'OK'; result: T } {
  return { code: 200, status: 'OK', result };
}

/** Unwraps a use-case result into the v2 envelope; a problem goes to the error handler. */
export function v2Result<T>(result: Result<T>): { code: 200; status: 'OK'; result: T } {
  return v2(unwrap(result));
}

const JSON_TYPE = 'application/json; charset=utf-8';
const ENVELOPE_HEAD = '{"code":200,"status":"OK","result":';

/*
 * JSON text is sent as a string: the socket encodes it into memory of its own. A Buffer per
 * search page (110 KB at 100 hits) is an ArrayBuffer counted as V8 external memory, which at
 * ~1,800 pages/s triggered scavenges for external memory pressure (BENCHMARK, session 10).
 */

/**
 * Sends a search page in the v2 envelope. Its hits are JSON text already, so the envelope is
 * written around them (in the same join) instead of going through the reply serialiser.
 */
export function sendSearchPage(reply: FastifyReply, result: Result<SearchPage>): FastifyReply {
  return reply.type(JSON_TYPE).send(searchPageJson(unwrap(result), ENVELOPE_HEAD, '}'));
}

/** Sends a result that is JSON text already in the v2 envelope. */
export function sendV2Json(reply: FastifyReply, result: Result<string>): FastifyReply {
  const json = unwrap(result);
  return reply.type(JSON_TYPE).send(`${ENVELOPE_HEAD}${json}}`);
}

export function noContent(reply: FastifyReply): FastifyReply {
  return reply.code(204).send();
}

/** List parameters arrive as repeated keys or comma-separated values (contract §1.4). */
export function listParam(value: string | readonly string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = (typeof value === 'string' ? [value] : value).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  return items;
}

/** Python clients send booleans as `True`/`False`. */
export function boolParam(value: string | boolean | undefined): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === '1' || v === 'yes') return true;
  if (v === 'false' || v === '0' || v === 'no' || v === '') return false;
  return undefined;
}
