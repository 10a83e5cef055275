/**
 * The ingest pipeline: records from any source become host and certificate documents.
 *
 * Records are taken in batches. For each batch: host observations are validated and grouped by
 * host id in time order; every certificate the batch mentions (TLS chains, certificate records)
 * is parsed once; the current documents of the batch's certificates and hosts are read in one
 * query each; observations are merged; certificates are written, then hosts (so a host's index
 * document can embed the certificate it presents). Each index's writes for a batch are one store
 * transaction, so an interrupted ingest leaves whole batches, and because merges are idempotent
 * running the same input again completes the job without new versions.
 *
 * An observation older than a host's current version is merged into the version current at its
 * time and written at its time: history gains the state it saw, the current view does not move.
 * An observation of an unknown host with no open service creates nothing.
 */
import { hash } from 'node:crypto';
import type { IndexName } from '../../model/field-def.ts';
import type { PutResult, Store, StoredDocument } from '../../store/store.ts';
import { parseTimestamp, isoTime } from '../../lib/time.ts';
import { parseCertificate, type CertificateDocument } from '../x509/index.ts';
import { createIntermediatePool, defaultRootStore, validateChain } from '../validation/index.ts';
import type { Enrichment } from '../enrich/index.ts';
import { canonicalJson } from '../../store/canonical-json.ts';
import type { CertificateObservation, HostObservation, IngestRecord } from '../observation.ts';
import { hostIdOf, type HostId } from './host-id.ts';
import { mergeObservation, type HostDoc, type MergeContext } from './merge-host.ts';
import { compareServices, type ServiceChanges } from './compare-services.ts';
import { parseTimeCached } from './time-cache.ts';
import { sortSmall } from '../../lib/sort-small.ts';

/**
 * What the pipeline writes through: Indexer.put (store, then engine), or the store alone.
 * `canonical` is `canonicalJson(doc)` (the pipeline's merged documents carry it): the store
 * takes it as it is.
 */
export interface DocumentWriter {
  put(
    index: IndexName,
    items: readonly { id: string; doc: Record<string, unknown>; observedAt: string; canonical?: string; canonicalUtf8?: Uint8Array }[],
  ): Promise<PutResult[]>;
}

export interface IngestDeps {
  readonly indexer: DocumentWriter;
  readonly store: Store;
  readonly enricher: { enrich(ip: string): Enrichment | undefined };
  readonly now: () => Date;
  /** Parse and merge against current data, write nothing. */
  readonly dryRun?: boolean;
  /** Records merged together (default DEFAULT_BATCH_SIZE). */
  readonly batchSize?: number;
  /** A service not observed for this long is removed (default 7 days). */
  readonly serviceExpiryMs?: number;
  /** Rejected records kept in the summary (default 10,000); the rest are only counted. */
  readonly maxRejectedKept?: number;
  readonly onProgress?: (summary: IngestSummary) => void;
  /**
   * Records read before store writes move to a thread of their own, when the store offers one
   * (default 20,000: a thread is not worth its start on small inputs).
   */
  readonly writerThreadAfterRecords?: number;
}

export interface RejectedRecord {
  readonly position: string;
  readonly reason: string;
}

export interface IngestSummary {
  records: number;
  hostObservations: number;
  certificateObservations: number;
  hosts: { created: number; updated: number; unchanged: number; historyUpdated: number };
  services: ServiceChanges;
  certificates: { new: number; seenAgain: number };
  rejected: { count: number; kept: RejectedRecord[] };
  dryRun: boolean;
}

export const DEFAULT_SERVICE_EXPIRY_MS = 7 * 24 * 3600 * 1000;
/**
 * Records merged together. A batch's parsed records and merged documents live until it is done,
 * and those alive when the young generation fills are copied, then promoted to the old one: with
 * 1,000 records a batch allocated about as much as the young generation holds (64 MB), and
 * scavenges paused the thread twice as long as with 250 (docs/BENCHMARK.md, ingest round 10).
 * Writes are grouped by record count (WRITE_GROUP_RECORDS), whatever the batch size.
 */
export const DEFAULT_BATCH_SIZE = 250;
/**
 * A writer thread costs a few tenths of a second of CPU to start (its loader and modules); writes
 * made here (hashing, statements compiled per chunk, SQLite) cost this thread ~100 µs per record
 * more than handing the text over, so a few thousand records repay the thread.
 */
const WRITER_THREAD_AFTER_RECORDS = 5_000;
/**
 * Records whose batches are written together. Ingest writes versions of ids in random order, so a
 * transaction dirties about one page per record in each index at 1,000 records, and fewer as it
 * grows: the store's writes cost ~49 µs per record in transactions of 1,000, ~32 µs in 4,000 and
 * ~30 µs in 8,000 (SQLite, 600,000 hosts stored; docs/BENCHMARK.md, ingest round 8).
 */
const WRITE_GROUP_RECORDS = 8_000;
/**
 * Write groups merged and not yet written: one being written and two filling up. The writer's
 * time comes in bursts (its WAL checkpoints); with one group of slack the pipeline waited for it
 * 20 s of a 1,000,000-line run, with two 0.7 s (ingest round 9). They wait as text (TextItem),
 * about 3 KB a record.
 */
const UNWRITTEN_GROUPS = 3;
/** Parsed certificates kept across batches (a few KB each). */
const CERT_CACHE_SIZE = 10_000;

function byTimeThenSeq(a: HostItem, b: HostItem): number {
  return a.ms - b.ms || a.seq - b.seq;
}

function batchSizeOf(deps: IngestDeps): number {
  return Math.max(1, deps.batchSize ?? DEFAULT_BATCH_SIZE);
}

export function emptySummary(dryRun = false): IngestSummary {
  return {
    records: 0,
    hostObservations: 0,
    certificateObservations: 0,
    hosts: { created: 0, updated: 0, unchanged: 0, historyUpdated: 0 },
    services: { added: 0, changed: 0, removed: 0 },
    certificates: { new: 0, seenAgain: 0 },
    rejected: { count: 0, kept: [] },
    dryRun,
  };
}

export function sha256Hex(der: Uint8Array): string {
  // One-shot: a Hash object per certificate cost more than the digest.
  return hash('sha256', der, 'hex');
}

type PutItem = { id: string; doc: Record<string, unknown>; observedAt: string };

/**
 * A merged document waiting for the store, as the UTF-8 bytes of its canonical JSON text (a view
 * of its batch's buffer); the text and the object are made again only if something asks for them
 * (the engine's indexing, a later batch's merge of the same id, a store written on this thread).
 * - Documents wait for the store up to 24 batches: as object trees they survived several
 *   young-generation collections each, and copying them there was the largest item of the
 *   pipeline thread's profile (docs/BENCHMARK.md, ingest round 9).
 * - As strings they were still copied by each collection and promoted, then serialised one by one
 *   to the writer thread and parsed there; bytes outside the heap are neither (ingest round 10),
 *   and the writer thread reads them in the batch's shared buffer (round 11).
 */
class TextItem {
  #doc: Record<string, unknown> | undefined;

  constructor(
    readonly id: string,
    readonly canonicalUtf8: Uint8Array,
    readonly observedAt: string,
  ) {}

  get canonical(): string {
    const b = this.canonicalUtf8;
    return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
  }

  get doc(): Record<string, unknown> {
    return (this.#doc ??= JSON.parse(this.canonical) as Record<string, unknown>);
  }
}

/** A batch's documents as TextItems over one buffer. */
function asTexts(items: readonly PutItem[]): TextItem[] {
  if (items.length === 0) return [];
  const texts = items.map((item) => canonicalJson(item.doc));
  let size = 0;
  for (const t of texts) size += Buffer.byteLength(t, 'utf8');
  // Shared memory: the writer thread reads the texts where they are. An ArrayBuffer of its own
  // was copied by each postMessage, about 5 µs a record of this thread (docs/BENCHMARK.md,
  // ingest round 11). Nothing writes into it once the batch's texts are in.
  const buf = Buffer.from(new SharedArrayBuffer(size));
  const out: TextItem[] = [];
  let at = 0;
  for (let i = 0; i < items.length; i++) {
    const n = buf.write(texts[i]!, at, 'utf8');
    out.push(new TextItem(items[i]!.id, buf.subarray(at, at + n), items[i]!.observedAt));
    at += n;
  }
  return out;
}

/** A batch's writes, and its late observations, applied once those writes are done. */
interface QueuedBatch {
  readonly certItems: TextItem[];
  readonly hostItems: TextItem[];
  readonly late: { hosts: readonly HostItem[]; ctx: MergeContext } | undefined;
  readonly seq: number;
}

/** A current document as merging needs it: its content and when its version began. */
type Current = Pick<StoredDocument, 'doc' | 'validFrom'>;

/** An unwritten document, and the batch that holds it. */
interface InFlight {
  readonly item: TextItem;
  readonly seq: number;
}

interface HostItem {
  readonly id: HostId;
  readonly obs: HostObservation;
  readonly ms: number;
  readonly seq: number;
}

/** Everything a batch says about one certificate. */
interface CertSighting {
  readonly fp: string;
  readonly der: Uint8Array;
  inScan: boolean;
  /** Earliest time the batch saw it (observation or CT time); undefined when no record had one. */
  firstMs?: number;
  lastMs?: number;
  readonly ct: Map<string, { index: number; added_to_ct_at: string }>;
  /** Issuers presented with it (TLS chain after the leaf, CT chain), used to validate it. */
  chain: readonly Uint8Array[];
}

function validateHost(obs: HostObservation): string | undefined {
  if (!obs || typeof obs !== 'object') return 'not a host observation';
  if (typeof obs.observedAt !== 'string' || parseTimeCached(obs.observedAt) === undefined) return `bad observation time: ${JSON.stringify(obs.observedAt)}`;
  if (!Array.isArray(obs.services)) return 'services missing';
  for (const s of obs.services) {
    if (!Number.isInteger(s.port) || s.port < 0 || s.port > 65535) return `bad port: ${JSON.stringify(s.port)}`;
    if (s.transport !== 'TCP' && s.transport !== 'UDP' && s.transport !== 'QUIC') return `bad transport: ${JSON.stringify(s.transport)}`;
    if (s.state !== 'open' && s.state !== 'closed') return `bad service state: ${JSON.stringify(s.state)}`;
  }
  return undefined;
}

class BatchRunner {
  readonly summary: IngestSummary;
  private readonly expiryMs: number;
  private readonly intermediates = createIntermediatePool();
  /**
   * Certificates already offered to the pool (which parses each one it is offered): scans present
   * the same few again in every batch.
   */
  private readonly offeredIntermediates = new Set<string>();
  /** The newest certificate documents this run read or wrote, by fingerprint (see mergeCertificates). */
  private readonly knownCertificates = new Map<string, Record<string, unknown>>();
  private readonly keepRejected: number;
  /**
   * Batches merged and not yet written. Writes run in the background (in the store's writer thread,
   * or on PostgreSQL's connection) while the next batches are parsed and merged; whatever has
   * queued up meanwhile is written together, so a store transaction covers several batches and
   * dirties each index page once for all of them. Their documents stand in for the store's
   * answers until they are written.
   */
  private readonly queued: QueuedBatch[] = [];
  /** Batches handed to the writer or queued, not yet written. */
  private unwritten = 0;
  private batchSeq = 0;
  /** Batches written together (WRITE_GROUP_RECORDS), and how many may wait unwritten. */
  private readonly writeGroup: number;
  private readonly maxUnwritten: number;
  private draining: Promise<void> | undefined;
  /** flush() calls waiting: queued batches are written without waiting for a whole group. */
  private flushing = 0;
  private writeFailure: { error: unknown } | undefined;
  /** Wakes the write() calls waiting for room. */
  private onWritten: (() => void) | undefined;
  /** The newest unwritten document of each id, with the batch that holds it. */
  private readonly inFlight: { certificates: Map<string, InFlight>; hosts: Map<string, InFlight> } = {
    certificates: new Map(),
    hosts: new Map(),
  };

  constructor(private readonly deps: IngestDeps) {
    this.summary = emptySummary(!!deps.dryRun);
    this.expiryMs = deps.serviceExpiryMs ?? DEFAULT_SERVICE_EXPIRY_MS;
    this.keepRejected = deps.maxRejectedKept ?? 10_000;
    this.writeGroup = Math.max(1, Math.round(WRITE_GROUP_RECORDS / batchSizeOf(deps)));
    this.maxUnwritten = UNWRITTEN_GROUPS * this.writeGroup;
  }

  /**
   * A certificate parsed in an earlier batch is reused while it would parse the same: the only
   * time-dependent part of the document is the expired/unexpired label, so an entry is parsed
   * again when `now` has crossed its end of validity. Scans present the same few certificates
   * again and again; parsing them once per batch was a visible share of ingest time.
   */
  /**
   * Fingerprints by DER array, for the whole run: readers hand the same array to every record that
   * presents a certificate (zgrab2 does), so each is hashed once, not once per host and batch.
   */
  private readonly fingerprints = new WeakMap<Uint8Array, string>();

  private readonly certCache = new Map<string, { doc: CertificateDocument | undefined; notAfterMs: number | undefined; expired: boolean }>();

  private parseOnce(fp: string, der: Uint8Array): CertificateDocument | undefined {
    const now = this.deps.now();
    const hit = this.certCache.get(fp);
    if (hit && (hit.notAfterMs === undefined || now.getTime() > hit.notAfterMs) === hit.expired) return hit.doc;
    const r = parseCertificate(der, { now });
    const notAfterMs = r.ok ? parseTimestamp(r.doc.parsed.validity_period.not_after) : undefined;
    // Unparseable DER, or a document whose end of validity cannot be read back: never reused.
    if (!r.ok || notAfterMs === undefined) return r.ok ? r.doc : undefined;
    if (this.certCache.size >= CERT_CACHE_SIZE) this.certCache.clear();
    this.certCache.set(fp, { doc: r.doc, notAfterMs, expired: now.getTime() > notAfterMs });
    return r.doc;
  }

  reject(position: string, reason: string): void {
    this.summary.rejected.count++;
    if (this.summary.rejected.kept.length < this.keepRejected) this.summary.rejected.kept.push({ position, reason });
  }

  async run(records: readonly IngestRecord[]): Promise<void> {
    const hosts: HostItem[] = [];
    const certRecords: { position: string; cert: CertificateObservation }[] = [];
    let seq = 0;
    for (const r of records) {
      this.summary.records++;
      if (r.kind === 'rejected') this.reject(r.position, r.reason);
      else if (r.kind === 'host') {
        this.summary.hostObservations++;
        const bad = validateHost(r.host);
        const id = bad === undefined ? hostIdOf(r.host) : undefined;
        if (bad !== undefined) this.reject(r.position, bad);
        else if (!id!.ok) this.reject(r.position, id!.reason);
        else hosts.push({ id: id!.value, obs: r.host, ms: parseTimeCached(r.host.observedAt)!, seq: seq++ });
      } else {
        this.summary.certificateObservations++;
        certRecords.push({ position: r.position, cert: r.certificate });
      }
    }

    // Certificates: parse each distinct DER once.
    const parsed = new Map<string, CertificateDocument | undefined>();
    const fpOf = this.fingerprints;
    const fingerprint = (der: Uint8Array): string => {
      let fp = fpOf.get(der);
      if (!fp) fpOf.set(der, (fp = sha256Hex(der)));
      return fp;
    };
    const parse = (der: Uint8Array): CertificateDocument | undefined => {
      const fp = fingerprint(der);
      if (!parsed.has(fp)) parsed.set(fp, this.parseOnce(fp, der));
      return parsed.get(fp);
    };
    const sightings = new Map<string, CertSighting>();
    const sight = (der: Uint8Array, ms: number | undefined, inScan: boolean, chain: readonly Uint8Array[] = []): CertSighting | undefined => {
      if (!parse(der)) return undefined;
      const fp = fingerprint(der);
      let s = sightings.get(fp);
      if (!s) sightings.set(fp, (s = { fp, der, inScan: false, ct: new Map(), chain }));
      if (s.chain.length === 0 && chain.length > 0) s.chain = chain;
      if (inScan) s.inScan = true;
      if (ms !== undefined) {
        s.firstMs = s.firstMs === undefined ? ms : Math.min(s.firstMs, ms);
        s.lastMs = s.lastMs === undefined ? ms : Math.max(s.lastMs, ms);
      }
      return s;
    };
    for (const { position, cert } of certRecords) {
      if (!(cert?.der instanceof Uint8Array)) {
        this.reject(position, 'certificate record without DER bytes');
        continue;
      }
      const ctMs = cert.ct ? parseTimestamp(cert.ct.timestamp) : undefined;
      const s = sight(cert.der, ctMs, false, cert.chain ?? []);
      if (!s) {
        const r = parseCertificate(cert.der, { now: this.deps.now() });
        this.reject(position, r.ok ? 'certificate not stored' : r.error);
        continue;
      }
      if (cert.ct && ctMs !== undefined) s.ct.set(cert.ct.log, { index: cert.ct.index, added_to_ct_at: isoTime(ctMs) });
      (cert.chain ?? []).forEach((issuer, i) => sight(issuer, undefined, false, (cert.chain ?? []).slice(i + 1)));
    }
    for (const h of hosts) {
      for (const svc of h.obs.services) {
        const chain = svc.tls?.chain ?? [];
        chain.forEach((der, i) => sight(der, h.ms, true, chain.slice(i + 1)));
      }
    }
    const certItems = await this.mergeCertificates([...sightings.values()], parsed);

    const ctx: MergeContext = {
      enrich: (ip) => this.deps.enricher.enrich(ip),
      serviceExpiryMs: this.expiryMs,
      certificateFingerprint: fingerprint,
      certificate: parse,
    };
    const { items: hostItems, late } = await this.mergeHosts(hosts, ctx);
    if (this.deps.dryRun) {
      if (late.length > 0) await this.mergeLate(late, ctx);
    } else await this.write(certItems, hostItems, late.length > 0 ? { hosts: late, ctx } : undefined);
  }

  /**
   * Queues this batch's writes (certificates first, then the hosts that present them, across the
   * batches written together) and returns at once unless maxUnwritten batches are waiting; the
   * caller goes on with the next batch meanwhile. Writes start when writeGroup batches have
   * queued (or on flush).
   */
  private async write(certDocs: PutItem[], hostDocs: PutItem[], late?: QueuedBatch['late']): Promise<void> {
    if (certDocs.length === 0 && hostDocs.length === 0 && !late) return;
    this.throwIfFailed();
    const seq = ++this.batchSeq;
    const certItems = asTexts(certDocs);
    const hostItems = asTexts(hostDocs);
    for (const [items, flying] of [[certItems, this.inFlight.certificates], [hostItems, this.inFlight.hosts]] as const) {
      for (const item of items) flying.set(item.id, { item, seq });
    }
    this.queued.push({ certItems, hostItems, late, seq });
    this.unwritten++;
    if (this.queued.length >= this.writeGroup) this.draining ??= this.drain();
    while (this.unwritten >= this.maxUnwritten && !this.writeFailure) await this.written();
    this.throwIfFailed();
  }

  /** Writes queued batches, all that have queued at each turn, while a group has queued (or flush waits). */
  private async drain(): Promise<void> {
    const { indexer } = this.deps;
    try {
      while ((this.queued.length >= this.writeGroup || (this.flushing && this.queued.length > 0)) && !this.writeFailure) {
        const batches = this.queued.splice(0);
        const certItems = batches.flatMap((b) => b.certItems);
        const hostItems = batches.flatMap((b) => b.hostItems);
        if (certItems.length > 0) await indexer.put('certificates', certItems);
        if (hostItems.length > 0) await indexer.put('hosts', hostItems);
        const upTo = batches[batches.length - 1].seq;
        for (const flying of [this.inFlight.certificates, this.inFlight.hosts]) {
          for (const [id, d] of flying) if (d.seq <= upTo) flying.delete(id);
        }
        // Late observations edit history, read from the store: once their batch is written, and
        // before any later batch is. The current documents do not change (see mergeLate), so the
        // batches merged meanwhile did not need them.
        for (const b of batches) if (b.late) await this.mergeLate(b.late.hosts, b.late.ctx);
        this.unwritten -= batches.length;
        this.wake();
      }
    } catch (error) {
      // Taken by the next write() or flush(): the run fails.
      this.writeFailure = { error };
    } finally {
      this.draining = undefined;
      this.wake();
    }
  }

  private wake(): void {
    const w = this.onWritten;
    this.onWritten = undefined;
    w?.();
  }

  private written(): Promise<void> {
    return new Promise((resolve) => {
      const prev = this.onWritten;
      this.onWritten = () => {
        prev?.();
        resolve();
      };
    });
  }

  private throwIfFailed(): void {
    if (this.writeFailure) throw this.writeFailure.error;
  }

  /** Writes every queued batch and waits for them; a failed write fails the run. */
  async flush(): Promise<void> {
    this.flushing++;
    try {
      while (this.queued.length > 0 || this.draining) {
        if (this.writeFailure) break;
        await (this.draining ??= this.drain());
      }
    } finally {
      this.flushing--;
    }
    this.throwIfFailed();
  }

  /** Current documents: the store's, with the unwritten batches' over them. */
  private async currentDocs(index: IndexName, ids: readonly string[]): Promise<Map<string, Current>> {
    // Taken before the store is read: a batch written during the read leaves the map, but its
    // documents are what the read may or may not have seen, and they stand in either way.
    const flying = index === 'hosts' ? this.inFlight.hosts : this.inFlight.certificates;
    const over: Current[] = [];
    const overIds: string[] = [];
    if (flying.size > 0) for (const id of ids) {
      const d = flying.get(id);
      if (d) {
        over.push({ doc: d.item.doc, validFrom: d.item.observedAt });
        overIds.push(id);
      }
    }
    const out = new Map<string, Current>();
    for (let i = 0; i < ids.length; i += 500) {
      for (const d of await this.deps.store.documents.getMany(index, ids.slice(i, i + 500))) out.set(d.id, d);
    }
    for (let i = 0; i < over.length; i++) out.set(overIds[i], over[i]);
    return out;
  }

  private async mergeCertificates(sightings: readonly CertSighting[], parsed: Map<string, CertificateDocument | undefined>): Promise<PutItem[]> {
    if (sightings.length === 0) return [];
    const nowMs = this.deps.now().getTime();
    // Certificates whose last known document already holds what this batch saw need no read: a
    // certificate's merge only adds (an earlier first sighting, a scan, CT entries, a validation),
    // so a newer document holds it too. Scans present the same few certificates in every batch;
    // parsing their documents again took about 0.5 s of 200,000 lines (ingest round 10).
    const toRead: CertSighting[] = [];
    for (const s of sightings) {
      const known = this.knownCertificates.get(s.fp);
      if (known && known.validation && mergeCertificate(known, parsed.get(s.fp)!, s, nowMs) === known) this.summary.certificates.seenAgain++;
      else toRead.push(s);
    }
    if (toRead.length === 0) return [];
    const existing = await this.currentDocs('certificates', toRead.map((s) => s.fp));
    // Issuers seen anywhere in this run help validate certificates whose chain was not presented.
    for (const s of toRead) {
      if (this.offeredIntermediates.has(s.fp)) continue;
      if (this.offeredIntermediates.size >= CERT_CACHE_SIZE) this.offeredIntermediates.clear();
      this.offeredIntermediates.add(s.fp);
      this.intermediates.add(s.der);
    }
    const items: PutItem[] = [];
    for (const s of toRead) {
      const old = existing.get(s.fp)?.doc;
      if (old) this.summary.certificates.seenAgain++;
      else this.summary.certificates.new++;
      // Validated once, when first stored; re-validating as time passes is a separate sweep.
      const validation = old?.validation ? undefined : await this.validate(s);
      const next = mergeCertificate(old, parsed.get(s.fp)!, s, nowMs, validation);
      if (this.knownCertificates.size >= CERT_CACHE_SIZE) this.knownCertificates.clear();
      this.knownCertificates.set(s.fp, next);
      if (next === old) continue;
      // A certificate's versions move forward: a late sighting updates the current document.
      const at = Math.max(s.lastMs ?? s.firstMs ?? nowMs, old ? (parseTimestamp(existing.get(s.fp)!.validFrom) ?? 0) : 0);
      items.push({ id: s.fp, doc: next, observedAt: isoTime(at) });
    }
    return items;
  }

  private async validate(s: CertSighting): Promise<Record<string, unknown>> {
    const v = await validateChain(s.der, s.chain, this.intermediates, defaultRootStore(), { at: this.deps.now() });
    return {
      nss: {
        is_valid: v.is_valid,
        has_trusted_path: v.has_trusted_path,
        ever_valid: v.ever_valid,
        parents: v.parents,
        chains: v.chains,
        type: v.type,
        ...(v.reason ? { reason: v.reason } : {}),
      },
    };
  }

  private async mergeHosts(hosts: readonly HostItem[], ctx: MergeContext): Promise<{ items: PutItem[]; late: HostItem[] }> {
    if (hosts.length === 0) return { items: [], late: [] };
    const groups = new Map<string, HostItem[]>();
    for (const h of hosts) {
      const g = groups.get(h.id.id);
      if (g) g.push(h);
      else groups.set(h.id.id, [h]);
    }
    const current = await this.currentDocs('hosts', [...groups.keys()]);
    const items: PutItem[] = [];
    const late: HostItem[] = [];
    for (const [id, group] of groups) {
      sortSmall(group, byTimeThenSeq);
      const before = current.get(id)?.doc;
      let doc: HostDoc | undefined = before;
      const lastMs = before ? (parseTimeCached(String(before.last_updated_at ?? '')) ?? Number.NEGATIVE_INFINITY) : Number.NEGATIVE_INFINITY;
      for (const h of group) {
        if (h.ms < lastMs) {
          late.push(h);
          continue;
        }
        const next = mergeObservation(doc, h.obs, ctx, h.id);
        // A host nothing answered on (all closed, timed out) is not worth a document of its own.
        if (!doc && (next.services as unknown[]).length === 0) continue;
        if (next !== doc) items.push({ id, doc: next, observedAt: String(next.last_updated_at) });
        doc = next;
      }
      if (!before && doc) this.summary.hosts.created++;
      else if (doc !== before) this.summary.hosts.updated++;
      else this.summary.hosts.unchanged++;
      const changes = compareServices(before, doc);
      this.summary.services.added += changes.added;
      this.summary.services.changed += changes.changed;
      this.summary.services.removed += changes.removed;
    }
    return { items, late };
  }

  /**
   * Late observations: rare; each one edits history at its own time, after its batch is written.
   * The store inserts such a version among the older ones: the current document keeps its
   * content (only its version number grows).
   */
  private async mergeLate(late: readonly HostItem[], ctx: MergeContext): Promise<void> {
    // Written together, one store call for the batch's late observations, unless a host comes
    // again: its second observation merges into the history the first one wrote.
    let items: PutItem[] = [];
    const ids = new Set<string>();
    const writeItems = async () => {
      if (items.length === 0) return;
      const results = await this.deps.indexer.put('hosts', items);
      for (const r of results) if (r.outcome !== 'unchanged') this.summary.hosts.historyUpdated++;
      items = [];
      ids.clear();
    };
    for (const h of late) {
      if (ids.has(h.id.id)) await writeItems();
      const at = isoTime(h.ms);
      const then = await this.deps.store.documents.getAt('hosts', h.id.id, at);
      const next = mergeObservation(then?.doc, h.obs, ctx, h.id);
      if (next === then?.doc) continue;
      if (this.deps.dryRun) {
        this.summary.hosts.historyUpdated++;
        continue;
      }
      items.push({ id: h.id.id, doc: next, observedAt: at });
      ids.add(h.id.id);
    }
    await writeItems();
  }
}

/**
 * A certificate document with what this batch adds: first-seen time (`added_at`), whether it
 * was seen in a scan, and CT log entries. Returns `old` itself when nothing is new. A stored
 * document is kept as it is otherwise (re-parsing would only move time-dependent labels).
 */
export function mergeCertificate(
  old: Record<string, unknown> | undefined,
  fresh: CertificateDocument,
  s: Pick<CertSighting, 'inScan' | 'firstMs' | 'lastMs' | 'ct'>,
  nowMs: number,
  validation?: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = old ? { ...old } : { ...fresh };
  let changed = !old;
  if (validation && !out.validation) {
    out.validation = validation;
    const trusted = (validation.nss as { has_trusted_path?: boolean } | undefined)?.has_trusted_path === true;
    const labels = ((out.labels as string[] | undefined) ?? []).filter((l) => l !== 'trusted' && l !== 'untrusted');
    out.labels = [...labels, trusted ? 'trusted' : 'untrusted'].sort();
    changed = true;
  }
  const firstMs = s.firstMs ?? nowMs;
  const oldAdded = typeof out.added_at === 'string' ? parseTimestamp(out.added_at) : undefined;
  if (oldAdded === undefined || firstMs < oldAdded) {
    out.added_at = isoTime(firstMs);
    changed = true;
  }
  if (s.inScan && out.ever_seen_in_scan !== true) {
    out.ever_seen_in_scan = true;
    changed = true;
  }
  if (s.ct.size > 0) {
    const ct = (out.ct && typeof out.ct === 'object' ? out.ct : {}) as { entries?: Record<string, unknown> };
    const entries: Record<string, unknown> = { ...(ct.entries ?? {}) };
    for (const [log, e] of s.ct) {
      const prev = entries[log] as { index?: unknown; added_to_ct_at?: unknown } | undefined;
      if (prev?.index === e.index && prev?.added_to_ct_at === e.added_to_ct_at) continue;
      entries[log] = { index: e.index, added_to_ct_at: e.added_to_ct_at };
      changed = true;
    }
    out.ct = { ...ct, entries };
    if (!Array.isArray(out.labels) || !(out.labels as string[]).includes('ct')) {
      out.labels = [...new Set([...((out.labels as string[] | undefined) ?? []), 'ct'])].sort();
      changed = true;
    }
  }
  if (!changed) return old!;
  out.modified_at = isoTime(Math.max(s.lastMs ?? firstMs, firstMs));
  return out;
}

/**
 * Streams `records` through the pipeline. Memory holds one batch at a time (plus the kept
 * rejected records), whatever the input size.
 */
export async function runIngest(records: AsyncIterable<IngestRecord>, deps: IngestDeps): Promise<IngestSummary> {
  const runner = new BatchRunner(deps);
  const size = batchSizeOf(deps);
  let batch: IngestRecord[] = [];
  // An input of more than a few batches writes from a thread of its own; it starts in the
  // background (writes go on meanwhile) and is not worth its start for small inputs.
  let writer: Promise<(() => Promise<void>) | undefined> | undefined;
  const threadAfter = deps.writerThreadAfterRecords ?? WRITER_THREAD_AFTER_RECORDS;
  let read = 0;
  try {
    for await (const r of records) {
      batch.push(r);
      if (batch.length >= size) {
        await runner.run(batch);
        batch = [];
        deps.onProgress?.(runner.summary);
        // Turns the event loop: a batch is a long chain of promise continuations, during which
        // the input's next read is not even issued (it starts from a tick) and the writer
        // thread's answers are not taken; without this, each batch ended waiting for both
        // (10 s of a 55 s run of 400,000 zgrab2 lines, docs/BENCHMARK.md, ingest round 9).
        await new Promise<void>((resolve) => setImmediate(resolve));
        read += size;
        if (!writer && read >= threadAfter && !deps.dryRun && deps.store.documents.startWriterThread) {
          writer = deps.store.documents.startWriterThread().catch(() => undefined);
        }
      }
    }
    if (batch.length > 0) {
      await runner.run(batch);
      deps.onProgress?.(runner.summary);
    }
    await runner.flush();
  } finally {
    await runner.flush().catch(() => undefined);
    const stop = await writer;
    await stop?.();
  }
  return runner.summary;
}
