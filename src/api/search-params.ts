import type { Static } from '@sinclair/typebox';
import type { SearchParams } from '../search/search-documents.ts';
import { listParam } from './envelope.ts';
import type { SearchBody, SearchQuery } from './schemas.ts';

/** Search parameters from a GET query string (2.1.9 client) or a POST body (newest client); nulls mean absent. */
export function searchParams(input: Static<typeof SearchQuery> | Static<typeof SearchBody> | undefined): SearchParams {
  const p = input ?? {};
  return {
    q: p.q ?? undefined,
    perPage: p.per_page ?? undefined,
    cursor: p.cursor || undefined,
    fields: listParam(p.fields ?? undefined),
    sort: listParam(p.sort ?? undefined),
    virtualHosts: p.virtual_hosts ?? undefined,
  };
}
