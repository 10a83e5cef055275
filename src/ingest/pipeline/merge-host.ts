/**
 * One observation merged into a host document (Censys host schema, contract §3.1).
 *
 * Rules, in the order they apply:
 * - Services are keyed by port + transport. Each service remembers when it was last observed
 *   (`observed_at`); an observation older than that leaves the service alone, so a late
 *   observation never rolls a newer service back.
 * - An open service observation with a different identified `service_name` than the known one
 *   replaces the service entirely (the port now speaks something else).
 * - Otherwise the observation overlays the known service: what it carries replaces the old value
 *   (banner, software, labels, tls + certificate; its protocol sub-objects replace all the old
 *   ones together), what it does not carry is kept. A bare "open" (masscan, naabu) therefore
 *   refreshes `observed_at` and `perspective_id` but keeps the banner and protocol data a
 *   richer scan found. An unidentified observation keeps the known `service_name`, and its
 *   generic protocol objects (`banner_grab`) do not replace an identified service's ones.
 * - A closed observation removes the service (unless the service was observed later).
 * - Services last observed more than `serviceExpiryMs` before the newest time the document has
 *   seen (this observation or its last update) are removed as expired.
 * - Host-level data (operating system, reverse DNS) follows the newest observation; forward DNS
 *   names and host labels accumulate (a scan that does not resolve names says nothing about them).
 * - `autonomous_system`, `location` and `cloud` (with the `cloud` label) come from enrichment of
 *   the IP, never for virtual hosts.
 * - `last_updated_at` moves to the observation time only when the content changed; an unchanged
 *   merge returns the current document itself, so merging the same observation twice is a no-op.
 */
import { canonicalEqual } from '../../store/canonical-json.ts';
import { parseTimestamp, isoTime } from '../../lib/time.ts';
import type { Enrichment } from '../enrich/index.ts';
import type { CertificateDocument } from '../x509/index.ts';
import type { HostObservation, ServiceObservation, SoftwareObservation, TlsObservation } from '../observation.ts';
import { serviceByPort } from './service-names-by-port.ts';
import { formatCpe23, parseCpe } from './cpe.ts';
import { hostIdOf, type HostId } from './host-id.ts';
import { isoTimeCached, parseTimeCached } from './time-cache.ts';
import { sortedDeep, sortedShallow } from './key-order.ts';
import { sortSmall, sortStrings } from '../../lib/sort-small.ts';

export type HostDoc = Record<string, unknown>;
type Json = Record<string, unknown>;

export interface MergeContext {
  enrich(ip: string): Enrichment | undefined;
  serviceExpiryMs: number;
  /** SHA-256 (lower-case hex) of a DER certificate. */
  certificateFingerprint(der: Uint8Array): string;
  /** The parsed certificate, for `tls.certificates.leaf_data`; undefined when it does not parse. */
  certificate?(der: Uint8Array): CertificateDocument | undefined;
}

/** Service keys that are not protocol sub-objects. */
const BASE_KEYS = new Set([
  'port', 'transport_protocol', 'service_name', 'extended_service_name', 'observed_at', 'perspective_id', 'banner',
  'banner_hex', 'banner_hashes', 'software', 'labels', '_decoded', '_encoding', 'certificate', 'tls', 'source_ip',
  'truncated', 'jarm', 'transport_fingerprint', 'discovery_method',
]);

function timeOf(text: unknown): number {
  return typeof text === 'string' ? (parseTimeCached(text) ?? Number.NEGATIVE_INFINITY) : Number.NEGATIVE_INFINITY;
}

function serviceKey(port: unknown, transport: unknown): string {
  return `${String(port)}/${String(transport)}`;
}

function sortedUnique(values: Iterable<string>): string[] {
  return sortStrings([...new Set(values)]);
}

function cleanName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

// Every service of a run has the same source: its perspective is made once.
let lastSource = '';
let lastPerspective = 'PERSPECTIVE_';

export function perspectiveOf(source: string): string {
  if (source !== lastSource) {
    lastPerspective = `PERSPECTIVE_${source.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
    lastSource = source;
  }
  return lastPerspective;
}

/**
 * softwareDoc results by their inputs: scans report the same few products again and again, and
 * parsing and formatting their CPE was a visible share of merging. Only observations without
 * `other` are remembered (its values need not be strings, which a text key could not tell apart).
 */
const softwareDocs = new Map<string, Json>();
const SOFTWARE_DOCS_MAX = 10_000;

/**
 * The fields softwareDoc depends on, as one text: separated by U+0000. A field that is a string
 * without U+0000 or U+0001 stands as it is; any other (absent, another type, a string holding
 * either character) is U+0001 and its JSON text, which holds neither raw. So no two inputs share a
 * key. JSON.stringify of the six fields as an array took twice as long, for every software of
 * every service.
 */
function softwareKey(sw: SoftwareObservation, source: string): string {
  return `${keyField(source)}\u0000${keyField(sw.cpe)}\u0000${keyField(sw.part)}\u0000${keyField(sw.vendor)}\u0000${keyField(sw.product)}\u0000${keyField(sw.version)}`;
}

const SEPARATORS = /[\u0000\u0001]/;

function keyField(v: unknown): string {
  if (typeof v === 'string' && !SEPARATORS.test(v)) return v;
  return '\u0001' + (JSON.stringify(v) ?? '');
}

/** A software observation in the Censys shape (`uniform_resource_identifier` is CPE 2.3). */
export function softwareDoc(sw: SoftwareObservation, source: string): Json {
  if (sw.other !== undefined) return buildSoftwareDoc(sw, source);
  const key = softwareKey(sw, source);
  let doc = softwareDocs.get(key);
  if (doc === undefined) {
    doc = buildSoftwareDoc(sw, source);
    if (softwareDocs.size >= SOFTWARE_DOCS_MAX) softwareDocs.clear();
    softwareDocs.set(key, doc);
  }
  // A copy per document: documents are handed on (store, engine) and must not share objects.
  return { ...doc };
}

function buildSoftwareDoc(sw: SoftwareObservation, source: string): Json {
  const parsed = sw.cpe ? parseCpe(sw.cpe) : undefined;
  const known = (v: string | undefined) => (v && v !== '*' && v !== '-' ? v : undefined);
  const part = sw.part ?? known(parsed?.part);
  const vendor = sw.vendor ?? known(parsed?.vendor);
  const product = sw.product ?? known(parsed?.product);
  const version = sw.version ?? known(parsed?.version);
  const out: Json = {
    uniform_resource_identifier: formatCpe23({ ...parsed, part: part ?? '*', vendor: vendor ?? '*', product: product ?? '*', version: version ?? '*' }),
  };
  if (part) out.part = part;
  if (vendor) out.vendor = vendor;
  if (product) out.product = product;
  if (version) out.version = version;
  for (const k of ['update', 'edition', 'language', 'sw_edition', 'target_sw', 'target_hw'] as const) {
    const v = known(parsed?.[k]);
    if (v) out[k] = v;
  }
  const other = Object.entries(sw.other ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (other.length > 0) out.other = other.map(([key, value]) => ({ key, value }));
  out.source = source;
  return sortedShallow(out);
}

/** A certificate's subject and issuer objects in key order, made once per parsed certificate. */
const namesInOrder = new WeakMap<CertificateDocument, { subject: unknown; issuer: unknown }>();

/** Built in key order (see key-order.ts). */
function leafData(fp: string, cert: CertificateDocument | undefined): Json | undefined {
  if (!cert) return undefined;
  const p = cert.parsed;
  const ski = p.subject_key_info;
  const bits = ski.rsa?.length ?? ski.ecdsa?.length;
  let names = namesInOrder.get(cert);
  if (!names) namesInOrder.set(cert, (names = { subject: sortedDeep(p.subject), issuer: sortedDeep(p.issuer) }));
  const out: Json = {
    fingerprint: fp,
    issuer: names.issuer,
    issuer_dn: p.issuer_dn,
    names: cert.names,
    pubkey_algorithm: ski.key_algorithm.name,
  };
  if (bits !== undefined) out.pubkey_bit_size = bits;
  out.signature = { self_signed: p.signature.self_signed, signature_algorithm: p.signature.signature_algorithm.name };
  out.subject = names.subject;
  out.subject_dn = p.subject_dn;
  out.tbs_fingerprint = cert.tbs_fingerprint_sha256;
  return out;
}

/** Built in key order (see key-order.ts). */
function tlsDoc(tls: TlsObservation, ctx: MergeContext): { tls: Json; certificate?: string } {
  const out: Json = {};
  let leafFp: string | undefined;
  if (tls.chain.length > 0) {
    const fps = tls.chain.map((der) => ctx.certificateFingerprint(der));
    leafFp = fps[0];
    const certs: Json = {};
    if (tls.chain.length > 1 && ctx.certificate) {
      const chain: Json[] = [];
      for (let i = 1; i < tls.chain.length; i++) {
        const c = ctx.certificate(tls.chain[i]);
        chain.push(c ? { fingerprint: fps[i], issuer_dn: c.parsed.issuer_dn, subject_dn: c.parsed.subject_dn } : { fingerprint: fps[i] });
      }
      certs.chain = chain;
    }
    certs.chain_fps_sha_256 = fps.slice(1);
    const leaf = leafData(fps[0], ctx.certificate?.(tls.chain[0]));
    if (leaf) certs.leaf_data = leaf;
    certs.leaf_fp_sha_256 = fps[0];
    out.certificates = certs;
  }
  if (tls.cipherSelected) out.cipher_selected = tls.cipherSelected;
  if (tls.ja3s) out.ja3s = tls.ja3s;
  if (tls.ja4s) out.ja4s = tls.ja4s;
  if (tls.versionSelected) out.version_selected = tls.versionSelected;
  return leafFp === undefined ? { tls: out } : { tls: out, certificate: leafFp };
}

function decodedName(protocols: readonly string[], serviceName: string): string | undefined {
  if (protocols.length === 0) return undefined;
  const wanted = serviceName.toLowerCase();
  return protocols.includes(wanted) ? wanted : [...protocols].sort()[0];
}

function isPlainObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `b` over `a`, recursing into objects; arrays and scalars of `b` win. */
function mergeDeep(a: unknown, b: unknown): unknown {
  if (!isPlainObject(a) || !isPlainObject(b)) return b;
  const out: Json = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = mergeDeep(a[k], v);
  return out;
}

/** The service an open observation describes, on top of what was known (see the rules above). */
function mergeService(old: Json | undefined, s: ServiceObservation, observedAt: string, obs: HostObservation, ctx: MergeContext): Json {
  const identified = s.serviceName && s.serviceName !== 'UNKNOWN' ? s.serviceName.toUpperCase() : undefined;
  const keep = old && (!identified || old.service_name === identified) ? old : undefined;
  const out: Json = keep ? { ...keep } : {};
  out.port = s.port;
  out.transport_protocol = s.transport;
  out.observed_at = observedAt;
  out.perspective_id = perspectiveOf(obs.source);
  const byPort = serviceByPort(s.port);
  const serviceName =
    identified ?? (typeof keep?.service_name === 'string' ? keep.service_name : undefined) ?? s.serviceName?.toUpperCase() ?? byPort.serviceName;
  out.service_name = serviceName;
  if (s.banner !== undefined) out.banner = s.banner;
  if (s.software && s.software.length > 0) out.software = s.software.map((sw) => softwareDoc(sw, 'OSI_APPLICATION_LAYER'));
  if (s.labels && s.labels.length > 0) out.labels = sortedUnique(s.labels);
  // An unidentified observation (a banner grab) knows less than an identified service's protocol data.
  const knowsLess = !identified && keep !== undefined && typeof keep.service_name === 'string' && keep.service_name !== 'UNKNOWN';
  // Several records of one scan (masscan writes `http.server`, `title` and `http` banners
  // separately) describe the same service at the same time: they add up instead of replacing.
  const sameScan = keep !== undefined && keep.observed_at === observedAt && keep.perspective_id === out.perspective_id;
  if (s.protocols && Object.keys(s.protocols).length > 0 && !knowsLess) {
    if (!sameScan) for (const k of Object.keys(out)) if (!BASE_KEYS.has(k)) delete out[k];
    for (const [k, v] of Object.entries(s.protocols)) {
      if (v === undefined || BASE_KEYS.has(k)) continue;
      out[k] = sameScan ? mergeDeep(out[k], v) : v;
    }
  }
  if (s.tls) {
    const t = tlsDoc(s.tls, ctx);
    if (t.certificate) {
      out.tls = t.tls;
      out.certificate = t.certificate;
    } else if (typeof keep?.certificate === 'string') {
      // A scanner that saw TLS but captured no certificate (masscan, naabu) keeps the one another scan found.
      out.tls = { ...(keep.tls as Json | undefined), ...t.tls };
    } else {
      out.tls = t.tls;
      delete out.certificate;
    }
  }
  const protocolKeys = Object.keys(out).filter((k) => !BASE_KEYS.has(k));
  const decoded = decodedName(protocolKeys, serviceName);
  if (decoded) out._decoded = decoded;
  else delete out._decoded;
  // The extended name follows the data: HTTP with TLS is HTTPS whatever the port says.
  let extended = s.extendedServiceName?.toUpperCase();
  if (!extended && serviceName === 'HTTP' && out.tls) extended = 'HTTPS';
  if (!extended && typeof keep?.extended_service_name === 'string' && (!s.serviceName || keep.service_name === serviceName) && !s.tls) {
    extended = keep.extended_service_name;
  }
  if (!extended) extended = byPort.serviceName === serviceName ? byPort.extendedServiceName : serviceName;
  out.extended_service_name = extended;
  return out;
}

function compareServices(a: Json, b: Json): number {
  const pa = Number(a.port);
  const pb = Number(b.port);
  if (pa !== pb) return pa - pb;
  const ta = String(a.transport_protocol);
  const tb = String(b.transport_protocol);
  return ta < tb ? -1 : ta > tb ? 1 : 0;
}

/**
 * True when the services certainly differ from `before`'s: another count, or a service observed at
 * another time (observation times are strings, never left out of the text). A rescan moves every
 * service it sees, so this answers most comparisons of merged documents without walking the
 * services' protocol data; false means only that the whole document must be compared.
 */
function servicesMoved(after: readonly Json[], before: unknown): boolean {
  if (!Array.isArray(before) || before.length !== after.length) return Array.isArray(before);
  for (let i = 0; i < after.length; i++) {
    const a = after[i]?.observed_at;
    const b = (before[i] as Json | null | undefined)?.observed_at;
    if (typeof a === 'string' && typeof b === 'string' && a !== b) return true;
  }
  return false;
}

function withoutUpdatedAt(doc: HostDoc): HostDoc {
  const { last_updated_at: _ignored, ...rest } = doc;
  return rest;
}

/**
 * Merges `obs` into `current` (undefined for a new host). Returns `current` itself when nothing
 * changes. The observation must have a valid IP and time (the pipeline rejects the others first).
 * `knownId`: hostIdOf(obs), when the caller has it already.
 */
export function mergeObservation(current: HostDoc | undefined, obs: HostObservation, ctx: MergeContext, knownId?: HostId): HostDoc {
  let id = knownId;
  if (!id) {
    const parsedId = hostIdOf(obs);
    if (!parsedId.ok) throw new Error(`mergeObservation: ${parsedId.reason}`);
    id = parsedId.value;
  }
  const obsMs = timeOf(obs.observedAt);
  const observedAt = isoTimeCached(obsMs);
  const lastMs = timeOf(current?.last_updated_at);
  // Host-level fields follow the newest observation only.
  const newest = obsMs >= lastMs;
  const services = new Map<string, Json>();
  for (const s of Array.isArray(current?.services) ? (current.services as Json[]) : []) {
    services.set(serviceKey(s.port, s.transport_protocol), s);
  }
  for (const s of obs.services) {
    const key = serviceKey(s.port, s.transport);
    const old = services.get(key);
    if (old && timeOf(old.observed_at) > obsMs) continue;
    if (s.state === 'closed') services.delete(key);
    else services.set(key, mergeService(old, s, observedAt, obs, ctx));
  }
  const horizon = Math.max(obsMs, lastMs) - ctx.serviceExpiryMs;
  for (const [key, s] of services) if (timeOf(s.observed_at) < horizon) services.delete(key);

  let dns: Json | undefined;
  let enrichment: Enrichment | undefined;
  if (!id.name) {
    dns = current?.dns && typeof current.dns === 'object' ? { ...(current.dns as Json) } : {};
    const oldNames = Array.isArray(dns.names) ? (dns.names as string[]) : [];
    const names = sortedUnique([...oldNames, ...(obs.names ?? []).map(cleanName).filter((n) => n.length > 0)]);
    if (names.length > 0) dns.names = names;
    if (newest && obs.reverseDns && obs.reverseDns.length > 0) {
      const rdns = sortedUnique(obs.reverseDns.map(cleanName).filter((n) => n.length > 0));
      const old = dns.reverse_dns as Json | undefined;
      if (!canonicalEqual(old?.names, rdns)) dns.reverse_dns = { names: rdns, resolved_at: observedAt };
    }
    enrichment = ctx.enrich(id.ip);
  }
  // The `cloud` label follows the enrichment: it goes when the address is no longer known as cloud.
  const oldLabels = (Array.isArray(current?.labels) ? (current.labels as string[]) : []).filter((l) => l !== 'cloud' || current?.cloud === undefined);
  const labels = sortedUnique([...oldLabels, ...(obs.labels ?? []), ...(enrichment?.cloud ? ['cloud'] : [])]);

  // Assigned in canonical key order (see key-order.ts): a new host's document is written as it
  // is built. A current document's keys keep their places; one it did not have goes last.
  // Virtual hosts carry no location, routing or DNS data (contract §3.1).
  const out: HostDoc = current ? { ...current } : {};
  if (enrichment?.autonomous_system) out.autonomous_system = enrichment.autonomous_system;
  else delete out.autonomous_system;
  if (enrichment?.cloud) out.cloud = enrichment.cloud;
  else delete out.cloud;
  if (dns && Object.keys(dns).length > 0) out.dns = dns;
  else if (id.name) delete out.dns;
  out.ip = id.ip;
  if (labels.length > 0) out.labels = labels;
  else delete out.labels;
  if (!current) out.last_updated_at = observedAt;
  if (enrichment?.location) out.location = enrichment.location;
  else delete out.location;
  if (id.name) out.name = id.name;
  if (newest && obs.operatingSystem) {
    out.operating_system = softwareDoc(obs.operatingSystem, obs.source === 'nmap' ? 'OSI_TRANSPORT_LAYER' : 'OSI_APPLICATION_LAYER');
  }
  out.services = sortSmall([...services.values()], compareServices);

  if (current && !servicesMoved(out.services as Json[], current.services) && canonicalEqual(withoutUpdatedAt(out), withoutUpdatedAt(current))) return current;
  out.last_updated_at = isoTimeCached(Math.max(obsMs, lastMs));
  return out;
}
