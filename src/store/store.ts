/**
 * The store of record: what the use cases need from the relational database. One implementation
 * (KyselyStore) serves SQLite and PostgreSQL; the shared suite in test/store/ runs on both.
 * All times are RFC 3339 strings in UTC with millisecond precision (`2024-10-27T16:39:12.343Z`).
 */
import type { IndexName } from '../model/field-def.ts';
import type { Asset, AssetType, LogbookEvent, LogbookEventType, NewLogbookEvent } from '../model/asm-asset.ts';
import type { NewRiskEvent, NewRiskInstance, RiskEvent, RiskInstance, RiskInstanceChange, RiskTypeSetting } from '../model/asm-risk.ts';

export type Json = Record<string, unknown>;

export interface StoredDocument {
  readonly id: string;
  readonly doc: Json;
  /** 1 for the first version; +1 for every change. */
  readonly version: number;
  /** When this version became current (the observation time given to putDocument). */
  readonly validFrom: string;
}

export interface PutResult {
  /** created: no prior version; updated: content differed, new version; unchanged: identical content, nothing written. */
  readonly outcome: 'created' | 'updated' | 'unchanged';
  readonly version: number;
  /**
   * A new version written from a document's JSON text (PutManyItem `json`): whether that text
   * parsed to JSON data (search/is-json-data.ts), i.e. reading the version back returns what
   * JSON.parse made of the text. Absent when the store did not parse a text (false may also mean
   * it could not tell).
   */
  readonly jsonData?: boolean;
}

export interface PutManyItem {
  readonly id: string;
  readonly doc: Json;
  readonly observedAt: string;
  readonly jsonData?: boolean;
  readonly json?: string;
  /** `canonicalJson(doc)`, when the caller has it: stored as it is instead of serialising `doc`. */
  readonly canonical?: string;
  /**
   * `canonical` as UTF-8, when the caller has it so: the store's writer thread takes these bytes,
   * which cross to it as one copy of their buffer instead of a string serialised and parsed again
   * (none when the buffer is a SharedArrayBuffer, as ingest's are; its bytes must not change).
   */
  readonly canonicalUtf8?: Uint8Array;
}

export interface DocumentRepository {
  /**
   * Store `doc` as the current version of `id` observed at `observedAt`. A document whose content
   * (canonical JSON, key order ignored) equals the current version writes nothing. A version
   * observed before the current one is still kept in history at its time (it does not become current).
   */
  put(index: IndexName, id: string, doc: Json, observedAt: string): Promise<PutResult>;
  /**
   * Many puts in one transaction; results in input order. `jsonData` marks a document that is JSON
   * data as JSON.parse returns it (search/is-json-data.ts): the store may then serialise it in any
   * key order and canonicalise the text elsewhere (its writer thread), with the same result; `json`
   * is a JSON text that parses to the document (the line it was read from), which the
   * store may take instead of serialising the document again. `json` may come without `jsonData`:
   * the canonical text of what it parses to is the document's whatever the document holds
   * (canonicalJson writes -0 as 0 and infinities as null either way), and a store that parses it
   * says in PutResult.jsonData whether it was JSON data.
   */
  putMany(index: IndexName, items: readonly PutManyItem[]): Promise<PutResult[]>;
  get(index: IndexName, id: string): Promise<StoredDocument | undefined>;
  /** Current versions of the ids that exist, in no particular order. */
  getMany(index: IndexName, ids: readonly string[]): Promise<StoredDocument[]>;
  /** The version current at `at` (latest validFrom <= at), or undefined. */
  getAt(index: IndexName, id: string, at: string): Promise<StoredDocument | undefined>;
  /** All versions of `id`, oldest first, optionally those with validFrom in [from, to). */
  history(index: IndexName, id: string, range?: { from?: string; to?: string }): Promise<StoredDocument[]>;
  /** Ids of documents whose id starts with `prefix` (virtual hosts of an IP: prefix `ip+`). */
  idsWithPrefix(index: IndexName, prefix: string, limit: number): Promise<string[]>;
  /** Every current document in id order, in batches (for rebuilding an engine). */
  scan(index: IndexName, batchSize: number): AsyncIterable<StoredDocument[]>;
  count(index: IndexName): Promise<number>;
  remove(index: IndexName, id: string): Promise<boolean>;
  /**
   * Optional, for long runs of writes (ingest): moves putMany off the calling thread (same
   * results, same order) until the returned function is called.
   */
  startWriterThread?(): Promise<() => Promise<void>>;
}

export interface Workspace {
  readonly id: string;
  readonly name: string;
  readonly createdAt: string;
}

export interface User {
  readonly id: string;
  readonly email: string;
  readonly workspaceId: string;
  readonly role: 'admin' | 'user';
  /** Search API id (public). */
  readonly apiId: string;
  readonly apiSecretHash: string;
  readonly asmKeyHash: string;
  /** Search queries allowed per quota period. */
  readonly quotaAllowance: number;
  readonly createdAt: string;
  readonly firstLoginAt: string | null;
  readonly lastLoginAt: string | null;
}

export interface NewUser {
  readonly email: string;
  readonly workspaceId: string;
  readonly role: 'admin' | 'user';
  readonly apiId: string;
  readonly apiSecretHash: string;
  readonly asmKeyHash: string;
  readonly quotaAllowance: number;
}

export interface UserRepository {
  createWorkspace(name: string): Promise<Workspace>;
  listWorkspaces(): Promise<Workspace[]>;
  getWorkspace(id: string): Promise<Workspace | undefined>;
  create(user: NewUser): Promise<User>;
  byApiId(apiId: string): Promise<User | undefined>;
  byAsmKeyHash(hash: string): Promise<User | undefined>;
  byEmail(email: string): Promise<User | undefined>;
  get(id: string): Promise<User | undefined>;
  list(): Promise<User[]>;
  remove(id: string): Promise<boolean>;
  /** Replace credentials (rotation). */
  updateCredentials(id: string, creds: { apiId?: string; apiSecretHash?: string; asmKeyHash?: string }): Promise<void>;
  /** Sets firstLoginAt when null, and lastLoginAt. */
  touchLogin(id: string, at: string): Promise<void>;
}

export interface Comment {
  readonly id: string;
  readonly workspaceId: string;
  readonly index: IndexName;
  readonly docId: string;
  readonly authorId: string;
  readonly contents: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface CommentRepository {
  list(workspaceId: string, index: IndexName, docId: string): Promise<Comment[]>;
  get(workspaceId: string, index: IndexName, docId: string, commentId: string): Promise<Comment | undefined>;
  add(workspaceId: string, index: IndexName, docId: string, authorId: string, contents: string): Promise<Comment>;
  update(workspaceId: string, index: IndexName, docId: string, commentId: string, contents: string): Promise<Comment | undefined>;
  remove(workspaceId: string, index: IndexName, docId: string, commentId: string): Promise<boolean>;
}

export interface Tag {
  /** Decimal integer as a string (Censys shape). */
  readonly id: string;
  readonly workspaceId: string;
  readonly name: string;
  readonly color: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface TagRepository {
  list(workspaceId: string): Promise<Tag[]>;
  /** Undefined when a tag of that name already exists in the workspace. */
  create(workspaceId: string, name: string, color: string | null): Promise<Tag | undefined>;
  get(workspaceId: string, tagId: string): Promise<Tag | undefined>;
  byName(workspaceId: string, name: string): Promise<Tag | undefined>;
  update(workspaceId: string, tagId: string, name: string, color: string | null): Promise<Tag | undefined>;
  /** Also removes its assignments. */
  remove(workspaceId: string, tagId: string): Promise<boolean>;
  /** Idempotent. */
  assign(workspaceId: string, tagId: string, index: IndexName, docId: string): Promise<void>;
  unassign(workspaceId: string, tagId: string, index: IndexName, docId: string): Promise<boolean>;
  documents(workspaceId: string, tagId: string, index: IndexName): Promise<{ docId: string; taggedAt: string }[]>;
  tagsOf(workspaceId: string, index: IndexName, docId: string): Promise<Tag[]>;
}

export interface QuotaRepository {
  /** Add `n` to the user's usage in `period` (e.g. `2026-11`) and return the new total. */
  add(userId: string, period: string, n: number): Promise<number>;
  used(userId: string, period: string): Promise<number>;
}

/** Key/value settings kept by the instance (demo loaded, schema facts). */
export interface SettingsRepository {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
}

/** Seed types a client may add; stored seeds could in principle carry others (contract §2B.2). */
export type SeedType = 'IP_ADDRESS' | 'DOMAIN_NAME' | 'CIDR' | 'ASN';

export interface Seed {
  /** Database integer; shown as a JSON number on the wire. */
  readonly id: number;
  readonly workspaceId: string;
  readonly type: SeedType;
  /** Normalised text: canonical IP or CIDR, lower-case domain, decimal ASN. */
  readonly value: string;
  readonly label: string;
  readonly source: 'API' | 'CLOUD_CONNECTOR' | 'UI';
  readonly createdOn: string;
}

export interface NewSeed {
  readonly type: SeedType;
  readonly value: string;
  readonly label: string;
}

export interface SeedFilter {
  readonly type?: string;
  readonly label?: string;
}

/** A workspace's seeds. Unique by (workspace, type, value); a seed id of another workspace is not found. */
export interface SeedRepository {
  /** Oldest (lowest id) first. */
  list(workspaceId: string, filter?: SeedFilter): Promise<Seed[]>;
  get(workspaceId: string, id: number): Promise<Seed | undefined>;
  /** Inserts the seeds not already present (by type and value); returns those inserted, in input order. */
  add(workspaceId: string, seeds: readonly NewSeed[], source: Seed['source'], createdOn: string): Promise<Seed[]>;
  /**
   * In one transaction: removes the seeds labelled `label` that are not in `seeds`, and adds those
   * of `seeds` not present under any label (a value kept under another label stays there).
   */
  replaceLabel(
    workspaceId: string,
    label: string,
    seeds: readonly NewSeed[],
    source: Seed['source'],
    createdOn: string,
  ): Promise<{ added: Seed[]; removed: Seed[] }>;
  /** Returns the removed seeds. */
  removeByLabel(workspaceId: string, label: string): Promise<Seed[]>;
  remove(workspaceId: string, id: number): Promise<Seed | undefined>;
}

/** A page request for ASM lists (1-based page numbers, contract §1.11). */
export interface AssetPage {
  readonly offset: number;
  readonly limit: number;
}

export interface AssetListFilter {
  /** Only these asset ids (used by tag and source filters computed elsewhere). */
  readonly assetIds?: readonly string[];
  /** Exclude these asset ids. */
  readonly excludeIds?: readonly string[];
  readonly sources?: readonly string[];
}

/**
 * A workspace's discovered assets (model/asm-asset.ts). Lists are ordered by assetId in
 * byte order. `apply` writes asset changes and their logbook events in one transaction, so the
 * logbook never tells of a change the asset table does not hold, or the other way round.
 */
export interface AsmAssetRepository {
  list(workspaceId: string, type: AssetType, page: AssetPage, filter?: AssetListFilter): Promise<{ items: Asset[]; total: number }>;
  get(workspaceId: string, type: AssetType, assetId: string): Promise<Asset | undefined>;
  getMany(workspaceId: string, type: AssetType, assetIds: readonly string[]): Promise<Asset[]>;
  /** Every asset id of a family (discovery diffs against it; inventory restricts searches to it). */
  ids(workspaceId: string, type: AssetType): Promise<string[]>;
  count(workspaceId: string, type: AssetType): Promise<number>;
  /** Inserts or replaces the given assets and removes others, with their events; returns the events with ids. */
  apply(
    workspaceId: string,
    changes: { readonly upsert: readonly Asset[]; readonly remove: readonly { type: AssetType; assetId: string }[] },
    events: readonly NewLogbookEvent[],
  ): Promise<LogbookEvent[]>;
}

export interface LogbookQuery {
  /** Events with id >= idFrom. */
  readonly idFrom?: number;
  /** Events with timestamp >= dateFrom. */
  readonly dateFrom?: string;
  readonly types?: readonly LogbookEventType[];
  readonly limit: number;
}

/** The workspace's logbook; ids ascend in commit order (a reader paging by id never skips one). */
export interface AsmLogbookRepository {
  /** Appends events outside an asset change (risk and user-config events); returns them with ids. */
  append(workspaceId: string, events: readonly NewLogbookEvent[]): Promise<LogbookEvent[]>;
  /** Ascending by id. */
  read(workspaceId: string, query: LogbookQuery): Promise<LogbookEvent[]>;
  /** Highest id written so far in the workspace (0 when none). */
  lastId(workspaceId: string): Promise<number>;
}

/** A saved inventory query of a workspace (contract §2B.9). */
export interface SavedQuery {
  /** Database integer as a decimal string (the wire's `queryId`). */
  readonly id: string;
  readonly workspaceId: string;
  readonly name: string;
  readonly query: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface SavedQueryFilter {
  /** Names starting with this, ignoring case. */
  readonly namePrefix?: string;
  /** Name or query text containing this, ignoring case. */
  readonly term?: string;
}

/** A workspace's saved queries; an id of another workspace is not found. */
export interface AsmSavedQueryRepository {
  /** Ordered by name (ignoring case), then id, so an exact name comes before longer ones sharing its prefix. */
  list(workspaceId: string, filter: SavedQueryFilter, page: AssetPage): Promise<{ items: SavedQuery[]; total: number }>;
  get(workspaceId: string, id: string): Promise<SavedQuery | undefined>;
  add(workspaceId: string, name: string, query: string, at: string): Promise<SavedQuery>;
  update(workspaceId: string, id: string, name: string, query: string, at: string): Promise<SavedQuery | undefined>;
  remove(workspaceId: string, id: string): Promise<boolean>;
}

/** A user's note on an ASM asset (contract §2B.3 AsmComment); ids are integers, unique per instance. */
export interface AsmComment {
  readonly commentId: number;
  readonly workspaceId: string;
  readonly assetType: AssetType;
  readonly assetId: string;
  readonly markdown: string;
  /** The author's email; null when the author was removed. */
  readonly createdBy: string | null;
  readonly createdOn: string;
}

/** A workspace's tag label (contract §5.5); labels are unique per workspace. */
export interface AsmTag {
  readonly tagId: number;
  readonly workspaceId: string;
  readonly label: string;
  readonly color: string;
  readonly createdAt: string;
}

/**
 * Comments and tags on a workspace's ASM assets, keyed by (type, assetId) rather than by asset row,
 * so they survive an asset leaving and re-entering the workspace. Another workspace's comment or
 * tag is never found.
 */
export interface AsmAnnotationRepository {
  /** Oldest first. */
  listComments(workspaceId: string, type: AssetType, assetId: string, page: AssetPage): Promise<{ items: AsmComment[]; total: number }>;
  getComment(workspaceId: string, type: AssetType, assetId: string, commentId: number): Promise<AsmComment | undefined>;
  addComment(workspaceId: string, type: AssetType, assetId: string, markdown: string, createdBy: string | null, createdOn: string): Promise<AsmComment>;
  removeComment(workspaceId: string, type: AssetType, assetId: string, commentId: number): Promise<boolean>;
  /** Comment counts of the given assets (absent = 0). */
  commentCounts(workspaceId: string, type: AssetType, assetIds: readonly string[]): Promise<Map<string, number>>;
  /** The workspace's tags, by tagId. */
  listTags(workspaceId: string): Promise<AsmTag[]>;
  /**
   * Puts the tag labelled exactly `label` on the asset, creating the tag when absent (with `color`,
   * or `defaultColor`); a `color` given for an existing tag becomes its colour. Idempotent.
   */
  tagAsset(workspaceId: string, type: AssetType, assetId: string, label: string, color: string | null, defaultColor: string, at: string): Promise<AsmTag>;
  /** False when the asset did not carry that label. */
  untagAsset(workspaceId: string, type: AssetType, assetId: string, label: string): Promise<boolean>;
  /** Tags of each given asset, by tagId (assets without tags are absent). */
  tagsOf(workspaceId: string, type: AssetType, assetIds: readonly string[]): Promise<Map<string, AsmTag[]>>;
  /** Ids of the assets of `type` carrying any of the tags, in byte order. */
  assetsTagged(workspaceId: string, type: AssetType, tagIds: readonly number[]): Promise<string[]>;
}

export interface RiskInstanceFilter {
  readonly ids?: readonly number[];
  readonly typeId?: string;
  readonly assetType?: string;
  readonly assetIds?: readonly string[];
  readonly status?: 'open' | 'resolved';
}

export interface RiskEventQuery {
  /** Events with id > afterId. */
  readonly afterId?: number;
  /** Events with ts >= start. */
  readonly start?: string;
  /** Events with ts <= end. */
  readonly end?: string;
  readonly riskIds?: readonly number[];
  readonly riskType?: string;
  /** Absent: no limit. */
  readonly limit?: number;
}

/**
 * A workspace's risk instances, risk events and risk-type settings (model/asm-risk.ts). Every
 * write stores its events in the same transaction, so the event log never tells of a change the
 * instances do not hold; event ids ascend in commit order (a reader paging by id skips none).
 */
export interface AsmRiskRepository {
  /** Ascending by id. */
  listInstances(workspaceId: string, filter?: RiskInstanceFilter): Promise<RiskInstance[]>;
  getInstance(workspaceId: string, id: number): Promise<RiskInstance | undefined>;
  /** Inserts and changes instances with their events; events naming `riskIdentity` get the new instance's id. */
  write(
    workspaceId: string,
    changes: {
      readonly insert: readonly NewRiskInstance[];
      readonly update: readonly RiskInstanceChange[];
      /** Instances found again unchanged: only their lastComputedAt becomes `at`. */
      readonly touch?: readonly number[];
    },
    events: readonly NewRiskEvent[],
    at: string,
  ): Promise<{ inserted: RiskInstance[]; events: RiskEvent[] }>;
  /** Ascending by id. */
  readEvents(workspaceId: string, query: RiskEventQuery): Promise<RiskEvent[]>;
  countEvents(workspaceId: string, query: Omit<RiskEventQuery, 'limit'>): Promise<number>;
  typeSettings(workspaceId: string): Promise<RiskTypeSetting[]>;
  /** Replaces the workspace's setting of `setting.type`, with its events. */
  putTypeSetting(workspaceId: string, setting: RiskTypeSetting, events: readonly NewRiskEvent[]): Promise<RiskEvent[]>;
}
/** A page row: the saved hit when it was made from the current content, otherwise the current document. */
export type PageRow =
  | { readonly id: string; readonly contentHash: string; readonly hit: string; readonly doc?: undefined }
  | { readonly id: string; readonly contentHash: string; readonly hit?: undefined; readonly doc: Json };

/** A rendering of a document as a search hit (JSON text), made from the content with `contentHash`. */
export interface SavedHit {
  readonly id: string;
  readonly contentHash: string;
  readonly hit: string;
}

export interface StaleHit {
  readonly id: string;
  readonly contentHash: string;
  readonly doc: Json;
}

/**
 * Search hits rendered ahead of time and kept beside the documents (page-reader.ts), so that a
 * page of results is one statement and no parsing of whole documents. `spec` names a rendering
 * (which fields, which format); a saved hit is only returned for the content it was made from.
 */
export interface PageReader {
  /** For each id that exists: its saved hit under `spec` if current, else the current document. No particular order. */
  hits(index: IndexName, ids: readonly string[], spec: string): Promise<PageRow[]>;
  /** Saves renderings under `spec`, replacing any earlier rendering of the same ids. */
  saveHits(index: IndexName, spec: string, hits: readonly SavedHit[]): Promise<void>;
  /**
   * Renders ahead, a window at a time: of the next `window` ids after `after` (in id order), the
   * current documents without a current saved hit under `spec`, and the window's last id (the next
   * `after`; undefined once past the last document).
   */
  staleHits(index: IndexName, spec: string, after: string | undefined, window: number): Promise<{ stale: StaleHit[]; last: string | undefined }>;
  /** Drops saved hits of documents that no longer exist; returns how many. */
  removeOrphanHits(index: IndexName): Promise<number>;
  /**
   * The current version of a document as JSON text, exactly as JSON.stringify writes the document
   * `documents.get` returns (SQLite hands back its stored text: canonical JSON is that text).
   */
  documentJson(index: IndexName, id: string): Promise<string | undefined>;
}

export interface Store {
  readonly dialect: 'sqlite' | 'postgres';
  readonly documents: DocumentRepository;
  readonly users: UserRepository;
  readonly comments: CommentRepository;
  readonly tags: TagRepository;
  readonly quota: QuotaRepository;
  readonly settings: SettingsRepository;
  readonly asmSavedQueries: AsmSavedQueryRepository;
  readonly seeds: SeedRepository;
  readonly pages: PageReader;
  readonly asmAssets: AsmAssetRepository;
  readonly asmLogbook: AsmLogbookRepository;
  readonly asmAnnotations: AsmAnnotationRepository;
  readonly asmRisks: AsmRiskRepository;
  close(): Promise<void>;
}
