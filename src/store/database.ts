/**
 * Row types of the store's tables as Kysely sees them. JSON columns are written as JSON text and
 * read back either as text (SQLite) or already parsed (PostgreSQL jsonb); `parseJson` hides that.
 */
import type { ColumnType } from 'kysely';

/** Written as a JSON string; read as a string (SQLite) or a parsed value (PostgreSQL). */
export type JsonColumn = ColumnType<unknown, string, string>;
/** Integer ids: numbers from SQLite, strings from PostgreSQL bigint. */
export type IdColumn = ColumnType<number | string, never, number | string>;
/** A bigint count: number from SQLite, string from PostgreSQL. */
export type CountColumn = ColumnType<number | string, number, number>;

export interface WorkspacesTable {
  id: string;
  name: string;
  created_at: string;
}

export interface UsersTable {
  id: string;
  email: string;
  workspace_id: string;
  role: string;
  api_id: string;
  api_secret_hash: string;
  asm_key_hash: string;
  quota_allowance: CountColumn;
  created_at: string;
  first_login_at: string | null;
  last_login_at: string | null;
}

export interface DocumentsTable {
  index_name: string;
  id: string;
  version: number;
  doc: JsonColumn;
  content_hash: string;
  valid_from: string;
}

export type DocumentVersionsTable = DocumentsTable;

export interface CommentsTable {
  id: IdColumn;
  workspace_id: string;
  index_name: string;
  doc_id: string;
  author_id: string;
  contents: string;
  created_at: string;
  updated_at: string;
}

export interface TagsTable {
  id: IdColumn;
  workspace_id: string;
  name: string;
  color: string | null;
  created_at: string;
  updated_at: string;
}

export interface TagAssignmentsTable {
  workspace_id: string;
  tag_id: ColumnType<number | string, number | string, number | string>;
  index_name: string;
  doc_id: string;
  tagged_at: string;
}

export interface QuotaUsageTable {
  user_id: string;
  period: string;
  used: CountColumn;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface AsmSeedsTable {
  id: IdColumn;
  workspace_id: string;
  type: string;
  /** ASN numbers are kept as decimal text, like every other value. */
  value: string;
  label: string;
  source: string;
  created_on: string;
}

export interface AsmSavedQueriesTable {
  id: IdColumn;
  workspace_id: string;
  query_name: string;
  query: string;
  created_at: string;
  updated_at: string;
}

export interface AsmCommentsTable {
  id: IdColumn;
  workspace_id: string;
  asset_type: string;
  asset_id: string;
  markdown: string;
  created_by: string | null;
  created_on: string;
}

export interface AsmTagsTable {
  id: IdColumn;
  workspace_id: string;
  label: string;
  color: string;
  created_at: string;
}

export interface AsmTagAssignmentsTable {
  workspace_id: string;
  tag_id: ColumnType<number | string, number | string, number | string>;
  asset_type: string;
  asset_id: string;
  tagged_at: string;
}

export interface AsmAssetsTable {
  workspace_id: string;
  type: string;
  asset_id: string;
  /** 0 or 1 in both dialects. */
  is_seed: number;
  source: string;
  associated_at: string;
  updated_at: string;
  trail: JsonColumn;
  cloud: string | null;
  data: JsonColumn;
}

export interface AsmLogbookTable {
  id: IdColumn;
  workspace_id: string;
  type: string;
  operation: string;
  timestamp: string;
  entity: JsonColumn;
  data: ColumnType<unknown, string | null, string | null>;
}

export interface AsmRiskInstancesTable {
  id: IdColumn;
  workspace_id: string;
  type_id: string;
  identity: string;
  asset_type: string;
  asset_id: string;
  context: JsonColumn;
  title: string;
  severity: string;
  severity_override: string | null;
  status: string;
  user_status: string | null;
  categories: ColumnType<unknown, string | null, string | null>;
  metadata: JsonColumn;
  evidence: JsonColumn;
  cloud: string | null;
  first_computed_at: string;
  last_computed_at: string;
  resolved_at: string | null;
  updated_at: string;
}

export interface AsmRiskEventsTable {
  id: IdColumn;
  workspace_id: string;
  ts: string;
  op: string;
  src: string;
  src_id: string;
  risk_id: ColumnType<number | string | null, number | null, number | null>;
  risk_type: string;
  reason: string;
  delta: JsonColumn;
}

export interface AsmRiskTypeSettingsTable {
  workspace_id: string;
  type: string;
  /** 0, 1, or null for the catalogue's value. */
  enabled: number | null;
  severity: string | null;
  categories: ColumnType<unknown, string | null, string | null>;
  config: string | null;
  last_disable_reason: string | null;
  last_severity_change_reason: string | null;
  updated_at: string;
}

/** Saved hit renderings (page-reader.ts): JSON text of a document as a search hit shows it. */
export interface DocumentHitsTable {
  index_name: string;
  id: string;
  /** The content hash of the version the hit was rendered from. */
  content_hash: string;
  /** Which rendering (fields and format). */
  spec: string;
  hit: string;
}

export interface Database {
  workspaces: WorkspacesTable;
  users: UsersTable;
  documents: DocumentsTable;
  document_versions: DocumentVersionsTable;
  comments: CommentsTable;
  tags: TagsTable;
  tag_assignments: TagAssignmentsTable;
  quota_usage: QuotaUsageTable;
  settings: SettingsTable;
  asm_saved_queries: AsmSavedQueriesTable;
  asm_seeds: AsmSeedsTable;
  asm_assets: AsmAssetsTable;
  asm_logbook: AsmLogbookTable;
  asm_comments: AsmCommentsTable;
  asm_tags: AsmTagsTable;
  asm_tag_assignments: AsmTagAssignmentsTable;
  asm_risk_instances: AsmRiskInstancesTable;
  asm_risk_events: AsmRiskEventsTable;
  asm_risk_type_settings: AsmRiskTypeSettingsTable;
  document_hits: DocumentHitsTable;
}

export type Dialect = 'sqlite' | 'postgres';

export function parseJson(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}
