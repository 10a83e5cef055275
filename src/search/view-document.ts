import type { Result } from '../lib/problem.ts';
import { fail, ok } from '../lib/problem.ts';
import { parseTimestamp, isoTime } from '../lib/time.ts';
import type { SearchContext } from './search-context.ts';
import { parseFingerprint, parseHostId } from './document-ids.ts';

/** A host as it is now, or as it was at `atTime` (answered from stored history). */
export async function viewHost(ctx: SearchContext, rawId: string, atTime?: string): Promise<Result<Record<string, unknown>>> {
  const id = parseHostId(rawId);
  if (!id.ok) return id;
  if (atTime !== undefined && atTime !== '') {
    const at = parseTimestamp(atTime);
    if (at === undefined) return fail('invalid_time', `Invalid at_time '${atTime}': expected RFC 3339, e.g. 2021-03-01T00:00:00.000000Z`);
    const v = await ctx.store.documents.getAt('hosts', id.value.id, isoTime(at));
    return v ? ok(v.doc) : fail('not_found', `Host ${id.value.id} has no data at ${isoTime(at)}`);
  }
  const v = await ctx.store.documents.get('hosts', id.value.id);
  return v ? ok(v.doc) : fail('not_found', `Host ${id.value.id} not found`);
}

/** `viewHost` as JSON text: the current version is sent as stored, without a parse. */
export async function viewHostJson(ctx: SearchContext, rawId: string, atTime?: string): Promise<Result<string>> {
  if (atTime !== undefined && atTime !== '') {
    const r = await viewHost(ctx, rawId, atTime);
    return r.ok ? ok(JSON.stringify(r.value)) : r;
  }
  const id = parseHostId(rawId);
  if (!id.ok) return id;
  const text = await ctx.store.pages.documentJson('hosts', id.value.id);
  return text !== undefined ? ok(text) : fail('not_found', `Host ${id.value.id} not found`);
}

/** `viewCertificate` as JSON text. */
export async function viewCertificateJson(ctx: SearchContext, rawFp: string): Promise<Result<string>> {
  const fp = parseFingerprint(rawFp);
  if (!fp.ok) return fp;
  const text = await ctx.store.pages.documentJson('certificates', fp.value);
  return text !== undefined ? ok(text) : fail('not_found', `Certificate ${fp.value} not found`);
}

export async function viewCertificate(ctx: SearchContext, rawFp: string): Promise<Result<Record<string, unknown>>> {
  const fp = parseFingerprint(rawFp);
  if (!fp.ok) return fp;
  const v = await ctx.store.documents.get('certificates', fp.value);
  return v ? ok(v.doc) : fail('not_found', `Certificate ${fp.value} not found`);
}

export const MAX_BULK = 1000;

/**
 * Bulk view. Each entry stands alone: an unknown or malformed fingerprint yields an entry with
 * its own `error` (and the fingerprint), the rest are unaffected.
 */
export async function bulkCertificates(ctx: SearchContext, fingerprints: readonly string[]): Promise<Result<Record<string, unknown>[]>> {
  if (fingerprints.length === 0) return fail('invalid_request', 'fingerprints: at least one SHA-256 fingerprint is required');
  if (fingerprints.length > MAX_BULK) return fail('invalid_request', `fingerprints: at most ${MAX_BULK} per request`);
  const parsed = fingerprints.map((f) => ({ raw: f, fp: parseFingerprint(f) }));
  const valid = parsed.flatMap((p) => (p.fp.ok ? [p.fp.value] : []));
  const found = new Map((await ctx.store.documents.getMany('certificates', valid)).map((d) => [d.id, d.doc]));
  return ok(
    parsed.map((p) => {
      if (!p.fp.ok) return { fingerprint_sha256: p.raw, error: p.fp.problem.message };
      return found.get(p.fp.value) ?? { fingerprint_sha256: p.fp.value, error: 'Certificate not found' };
    }),
  );
}
