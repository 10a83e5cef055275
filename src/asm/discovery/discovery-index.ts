/**
 * What discovery asks of the search indexes: the host and certificate documents matching a few
 * fixed conditions (an address range, an AS number, names under a domain, certificates by
 * fingerprint). Queries are built as resolved queries directly, so seed values never pass through
 * the query parser; matching ids come from the engine, documents from the store.
 */
import type { FieldDef, IndexName } from '../../model/field-def.ts';
import type { Predicate, ResolvedQuery } from '../../query/resolved.ts';
import type { SearchContext } from '../../search/search-context.ts';
import type { SortPosition } from '../../engine/search-engine.ts';
import { cidrRange, ipText } from '../../lib/ip.ts';

export type Doc = Record<string, unknown>;

const PAGE = 2000;
const FETCH = 500;

export class DiscoveryIndex {
  readonly #ctx: SearchContext;

  constructor(ctx: SearchContext) {
    this.#ctx = ctx;
  }

  #field(index: IndexName, path: string, predicate: Predicate): ResolvedQuery {
    const field: FieldDef | undefined = this.#ctx.catalogues[index].get(path);
    if (!field) return { kind: 'none' };
    return { kind: 'field', field, predicate };
  }

  /** Hosts (not virtual hosts) whose address is `value`, an IP or a CIDR. */
  addressQuery(value: string): ResolvedQuery {
    if (value.includes('/')) {
      const r = cidrRange(value);
      if (!r) return { kind: 'none' };
      return this.#field('hosts', 'ip', { op: 'range', lo: r.lo, hi: r.hi, loInclusive: true, hiInclusive: true });
    }
    const ip = ipText(value);
    return ip ? this.#field('hosts', 'ip', { op: 'eq', value: ip, caseSensitive: false }) : { kind: 'none' };
  }

  asnQuery(asn: number): ResolvedQuery {
    return this.#field('hosts', 'autonomous_system.asn', { op: 'eq', value: asn, caseSensitive: false });
  }

  /** Hosts with a DNS or reverse-DNS name equal to or under `domain`. */
  hostNamesQuery(domain: string): ResolvedQuery {
    return { kind: 'or', children: ['dns.names', 'dns.reverse_dns.names'].flatMap((p) => this.#nameUnder('hosts', p, domain)) };
  }

  /** Certificates naming `domain` or a name under it (wildcard names included). */
  certNamesQuery(domain: string): ResolvedQuery {
    return { kind: 'or', children: this.#nameUnder('certificates', 'names', domain) };
  }

  /** Hosts with `name` exactly among their DNS or reverse-DNS names. */
  hostsNamedExactlyQuery(name: string): ResolvedQuery {
    return {
      kind: 'or',
      children: ['dns.names', 'dns.reverse_dns.names'].map((p) => this.#field('hosts', p, { op: 'eq', value: name, caseSensitive: false })),
    };
  }

  /** Certificates naming `name`, or `*.name` (discovery reads a wildcard name as the name under it). */
  certsNamingQuery(name: string): ResolvedQuery {
    return {
      kind: 'or',
      children: [name, `*.${name}`].map((n) => this.#field('certificates', 'names', { op: 'eq', value: n, caseSensitive: false })),
    };
  }

  /** Hosts presenting the certificate `sha256` on some service. */
  presentersQuery(sha256: string): ResolvedQuery {
    return this.#field('hosts', 'services.certificate', { op: 'eq', value: sha256, caseSensitive: false });
  }

  #nameUnder(index: IndexName, path: string, domain: string): ResolvedQuery[] {
    // Seed domains are validated names: no `*` or `?` that the glob would read as wildcards.
    return [
      this.#field(index, path, { op: 'eq', value: domain, caseSensitive: false }),
      this.#field(index, path, { op: 'wildcard', pattern: `*.${domain}`, caseSensitive: false }),
    ];
  }

  /** Ids of the documents matching `query`; virtual hosts (`ip+name`) are left out. */
  ids(index: IndexName, query: ResolvedQuery): string[] {
    const out: string[] = [];
    let after: SortPosition | undefined;
    for (;;) {
      const r = this.#ctx.engine.search(index, { query, limit: PAGE, ...(after ? { after } : {}) });
      for (const h of r.hits) if (index !== 'hosts' || !h.id.includes('+')) out.push(h.id);
      if (!r.more || r.hits.length === 0) return out;
      after = r.hits[r.hits.length - 1].position;
    }
  }

  /** Current stored documents of `ids` (those that exist), keyed by id. */
  async documents(index: IndexName, ids: readonly string[]): Promise<Map<string, Doc>> {
    const out = new Map<string, Doc>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += FETCH) {
      for (const d of await this.#ctx.store.documents.getMany(index, unique.slice(i, i + FETCH))) out.set(d.id, d.doc);
    }
    return out;
  }
}
