/**
 * The write path shared by import, the demo loader and ingest: the store takes the document first
 * (it is the truth), then the engine indexes the current version. Host index documents embed
 * the certificates their TLS services present (`services.tls.certificate.*` is searchable on
 * hosts), so hosts are re-indexed when a certificate they present arrives later.
 */
import type { IndexName } from '../model/field-def.ts';
import type { Doc } from '../engine/search-engine.ts';
import type { PutResult, StoredDocument } from '../store/store.ts';
import type { SearchContext } from './search-context.ts';

export interface PutItem {
  readonly id: string;
  readonly doc: Record<string, unknown>;
  readonly observedAt: string;
}

/** Certificate fields that are not worth indexing inside every host presenting the certificate. */
const HEAVY_CERT_KEYS = new Set(['raw', 'zlint']);

function certificateForHost(cert: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(cert)) if (!HEAVY_CERT_KEYS.has(k)) out[k] = v;
  return out;
}

function fingerprintsOf(host: Record<string, unknown>): string[] {
  const services = Array.isArray(host.services) ? host.services : [];
  const out: string[] = [];
  for (const s of services) {
    const fp = (s as Record<string, unknown>)?.certificate;
    if (typeof fp === 'string') out.push(fp.toLowerCase());
  }
  return out;
}

/** Told which documents got a new current version (after store and engine took them). */
export type DocumentsChangedListener = (index: IndexName, ids: readonly string[]) => void | Promise<void>;

export class Indexer {
  private readonly listeners: DocumentsChangedListener[] = [];

  constructor(private readonly ctx: SearchContext) {}

  /**
   * Subscribe to changes (ASM discovery updates the assets a change touches). Listener failures
   * are reported through `onListenerError` and never fail the write that triggered them.
   */
  onChanged(listener: DocumentsChangedListener): void {
    this.listeners.push(listener);
  }

  onListenerError: (err: unknown) => void = () => {};

  private async emitChanged(index: IndexName, ids: readonly string[]): Promise<void> {
    for (const l of this.listeners) {
      try {
        await l(index, ids);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }

  /** The document the engine indexes for a stored host. */
  hostIndexDoc(host: Record<string, unknown>, certs: ReadonlyMap<string, Record<string, unknown>>): Doc {
    const services = Array.isArray(host.services) ? host.services : undefined;
    if (!services || !services.some((s) => typeof (s as Record<string, unknown>)?.certificate === 'string')) return host;
    return {
      ...host,
      services: services.map((s) => {
        const svc = s as Record<string, unknown>;
        const cert = typeof svc.certificate === 'string' ? certs.get(svc.certificate.toLowerCase()) : undefined;
        if (!cert) return svc;
        const tls = svc.tls && typeof svc.tls === 'object' ? (svc.tls as Record<string, unknown>) : {};
        return { ...svc, tls: { ...tls, certificate: certificateForHost(cert) } };
      }),
    };
  }

  private async indexHosts(stored: readonly StoredDocument[]): Promise<void> {
    const fps = [...new Set(stored.flatMap((s) => fingerprintsOf(s.doc)))];
    const certs = new Map<string, Record<string, unknown>>();
    for (let i = 0; i < fps.length; i += 500) {
      for (const c of await this.ctx.store.documents.getMany('certificates', fps.slice(i, i + 500))) certs.set(c.id, c.doc);
    }
    for (const s of stored) this.ctx.engine.upsert('hosts', s.id, this.hostIndexDoc(s.doc, certs));
  }

  async put(index: IndexName, items: readonly PutItem[]): Promise<PutResult[]> {
    if (items.length === 0) return [];
    const results = await this.ctx.store.documents.putMany(index, items);
    const changed = [...new Set(items.filter((_, i) => results[i].outcome !== 'unchanged').map((it) => it.id))];
    if (changed.length === 0) return results;
    // Re-read the current versions: an observation older than the current one changes history only.
    const current = await this.ctx.store.documents.getMany(index, changed);
    if (index === 'hosts') await this.indexHosts(current);
    else {
      for (const c of current) this.ctx.engine.upsert('certificates', c.id, c.doc);
      await this.reindexHostsPresenting(current.map((c) => c.id));
    }
    if (this.listeners.length > 0) await this.emitChanged(index, changed);
    return results;
  }

  private async reindexHostsPresenting(fingerprints: readonly string[]): Promise<void> {
    const field = this.ctx.catalogues.hosts.get('services.certificate');
    if (!field || this.ctx.engine.size('hosts') === 0) return;
    const ids = new Set<string>();
    for (const fp of fingerprints) {
      const r = this.ctx.engine.search('hosts', {
        query: { kind: 'field', field, predicate: { op: 'eq', value: fp, caseSensitive: false } },
        limit: 1000,
      });
      for (const h of r.hits) ids.add(h.id);
    }
    if (ids.size > 0) await this.indexHosts(await this.ctx.store.documents.getMany('hosts', [...ids]));
  }

  /** Loads every stored document into the engine (the engine never owns the truth). */
  async rebuild(onProgress?: (index: IndexName, done: number, total: number) => void): Promise<void> {
    for (const index of ['certificates', 'hosts'] as const) {
      const total = await this.ctx.store.documents.count(index);
      let done = 0;
      for await (const batch of this.ctx.store.documents.scan(index, 2000)) {
        if (index === 'hosts') await this.indexHosts(batch);
        else for (const c of batch) this.ctx.engine.upsert('certificates', c.id, c.doc);
        done += batch.length;
        onProgress?.(index, done, total);
      }
    }
  }
}
