/**
 * The store's schema, as Kysely migrations kept in code. The list is ordered by name and
 * append-only: a released migration is never edited; later changes (ASM tables, ...) add new
 * entries with a higher number. One set of migrations serves both dialects; the few places where
 * they differ go through `types(dialect)`.
 *
 * Times are ISO-8601 text (`YYYY-MM-DDTHH:MM:SS.sssZ`) in both dialects so that ordering and
 * comparison are textual and identical. Document ids use the "C" collation on PostgreSQL so that
 * `order by id` and prefix searches follow byte order there too, as they do in SQLite.
 */
import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Dialect } from './database.ts';

// Migrations see the database as it was when they were written, not as Database describes it now.
type AnyDb = Kysely<any>;

function types(dialect: Dialect) {
  const pg = dialect === 'postgres';
  return {
    json: pg ? sql`jsonb` : sql`text`,
    docId: pg ? sql`text collate "C"` : sql`text`,
    bigint: sql`bigint`,
    pg,
  };
}

function initial(dialect: Dialect): Migration {
  const t = types(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('workspaces')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('api_id', 'text', (c) => c.notNull().unique())
        .addColumn('api_secret_hash', 'text', (c) => c.notNull())
        .addColumn('asm_key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('quota_allowance', t.bigint, (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('first_login_at', 'text')
        .addColumn('last_login_at', 'text')
        .execute();
      await db.schema.createIndex('users_workspace').on('users').column('workspace_id').execute();

      await db.schema
        .createTable('documents')
        .addColumn('index_name', 'text', (c) => c.notNull())
        .addColumn('id', t.docId, (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('doc', t.json, (c) => c.notNull())
        .addColumn('content_hash', 'text', (c) => c.notNull())
        .addColumn('valid_from', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('documents_pk', ['index_name', 'id'])
        .execute();

      await db.schema
        .createTable('document_versions')
        .addColumn('index_name', 'text', (c) => c.notNull())
        .addColumn('id', t.docId, (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('doc', t.json, (c) => c.notNull())
        .addColumn('content_hash', 'text', (c) => c.notNull())
        .addColumn('valid_from', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('document_versions_pk', ['index_name', 'id', 'version'])
        .execute();
      await db.schema
        .createIndex('document_versions_time')
        .on('document_versions')
        .columns(['index_name', 'id', 'valid_from'])
        .execute();

      const id = (table: string) =>
        db.schema
          .createTable(table)
          .addColumn('id', t.pg ? t.bigint : 'integer', (c) =>
            t.pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
          );

      await id('comments')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('index_name', 'text', (c) => c.notNull())
        .addColumn('doc_id', 'text', (c) => c.notNull())
        .addColumn('author_id', 'text', (c) => c.notNull())
        .addColumn('contents', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('comments_doc')
        .on('comments')
        .columns(['workspace_id', 'index_name', 'doc_id'])
        .execute();

      await id('tags')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('color', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('tags_workspace_name', ['workspace_id', 'name'])
        .execute();

      await db.schema
        .createTable('tag_assignments')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('tag_id', t.pg ? t.bigint : 'integer', (c) =>
          c.notNull().references('tags.id').onDelete('cascade'),
        )
        .addColumn('index_name', 'text', (c) => c.notNull())
        .addColumn('doc_id', 'text', (c) => c.notNull())
        .addColumn('tagged_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('tag_assignments_pk', ['workspace_id', 'tag_id', 'index_name', 'doc_id'])
        .execute();
      // tagsOf(doc) and cascades by tag both need to find assignments without the leading workspace.
      await db.schema
        .createIndex('tag_assignments_doc')
        .on('tag_assignments')
        .columns(['workspace_id', 'index_name', 'doc_id'])
        .execute();
      await db.schema.createIndex('tag_assignments_tag').on('tag_assignments').column('tag_id').execute();

      await db.schema
        .createTable('quota_usage')
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('period', 'text', (c) => c.notNull())
        .addColumn('used', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('quota_usage_pk', ['user_id', 'period'])
        .execute();

      await db.schema
        .createTable('settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
    },
  };
}

/** ASM seeds: what a workspace says it owns; one row per (workspace, type, value). */
function asmSeeds(dialect: Dialect): Migration {
  const t = types(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('asm_seeds')
        .addColumn('id', t.pg ? t.bigint : 'integer', (c) =>
          t.pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
        )
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('created_on', 'text', (c) => c.notNull())
        .addUniqueConstraint('asm_seeds_workspace_type_value', ['workspace_id', 'type', 'value'])
        .execute();
      await db.schema.createIndex('asm_seeds_label').on('asm_seeds').columns(['workspace_id', 'label']).execute();
    },
  };
}

/**
 * The current version of a document is read from `document_versions` (which already held every
 * version) instead of being written a second time into `documents`: `documents` becomes the
 * pointer (id, version, hash, valid_from), its `doc` column is emptied and left nullable (never
 * written again). Halves the bytes every ingest writes.
 */
function documentsPointer(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      if (dialect === 'postgres') {
        await sql`alter table documents alter column doc drop not null`.execute(db);
        await sql`update documents set doc = null`.execute(db);
        return;
      }
      // SQLite cannot drop NOT NULL in place: the table is rebuilt (same name, key and columns).
      await sql`create table documents_0003 (index_name text not null, id text not null, version integer not null, doc text, content_hash text not null, valid_from text not null, constraint documents_pk primary key (index_name, id))`.execute(db);
      await sql`insert into documents_0003 (index_name, id, version, doc, content_hash, valid_from) select index_name, id, version, null, content_hash, valid_from from documents`.execute(db);
      await sql`drop table documents`.execute(db);
      await sql`alter table documents_0003 rename to documents`.execute(db);
    },
  };
}

/**
 * ASM discovery output (0004): a workspace's assets, keyed by family and id, and the logbook of
 * their changes. Logbook ids come from one identity/autoincrement column; writers serialise on a
 * lock (see asm-logbook-repository.ts) so ids ascend in commit order.
 */
function asmAssets(dialect: Dialect): Migration {
  const t = types(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('asm_assets')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('asset_id', t.docId, (c) => c.notNull())
        .addColumn('is_seed', 'integer', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('associated_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('trail', t.json, (c) => c.notNull())
        .addColumn('cloud', 'text')
        .addColumn('data', t.json, (c) => c.notNull())
        .addPrimaryKeyConstraint('asm_assets_pk', ['workspace_id', 'type', 'asset_id'])
        .execute();
      await db.schema.createIndex('asm_assets_source').on('asm_assets').columns(['workspace_id', 'type', 'source']).execute();

      await db.schema
        .createTable('asm_logbook')
        .addColumn('id', t.pg ? t.bigint : 'integer', (c) =>
          t.pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
        )
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('operation', 'text', (c) => c.notNull())
        .addColumn('timestamp', 'text', (c) => c.notNull())
        .addColumn('entity', t.json, (c) => c.notNull())
        .addColumn('data', t.json)
        .execute();
      await db.schema.createIndex('asm_logbook_workspace_id').on('asm_logbook').columns(['workspace_id', 'id']).execute();
      await db.schema.createIndex('asm_logbook_workspace_time').on('asm_logbook').columns(['workspace_id', 'timestamp']).execute();
    },
  };
}

/**
 * Comments and tags on ASM assets (0005). Keyed by (workspace, asset type, asset id) with no
 * foreign key to asm_assets: annotations outlive an asset leaving the workspace and show again if
 * it comes back. Tag labels are unique per workspace; assignments cascade with their tag.
 */
function asmAnnotations(dialect: Dialect): Migration {
  const t = types(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('asm_comments')
        .addColumn('id', t.pg ? t.bigint : 'integer', (c) =>
          t.pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
        )
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('asset_type', 'text', (c) => c.notNull())
        .addColumn('asset_id', t.docId, (c) => c.notNull())
        .addColumn('markdown', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .addColumn('created_on', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('asm_comments_asset').on('asm_comments').columns(['workspace_id', 'asset_type', 'asset_id', 'id']).execute();

      await db.schema
        .createTable('asm_tags')
        .addColumn('id', t.pg ? t.bigint : 'integer', (c) =>
          t.pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
        )
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('color', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('asm_tags_workspace_label', ['workspace_id', 'label'])
        .execute();

      await db.schema
        .createTable('asm_tag_assignments')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('tag_id', t.pg ? t.bigint : 'integer', (c) => c.notNull().references('asm_tags.id').onDelete('cascade'))
        .addColumn('asset_type', 'text', (c) => c.notNull())
        .addColumn('asset_id', t.docId, (c) => c.notNull())
        .addColumn('tagged_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('asm_tag_assignments_pk', ['workspace_id', 'asset_type', 'asset_id', 'tag_id'])
        .execute();
      // Tag filters look assets up by tag.
      await db.schema.createIndex('asm_tag_assignments_tag').on('asm_tag_assignments').columns(['workspace_id', 'tag_id', 'asset_type']).execute();
    },
  };
}

/**
 * ASM risks (0006): risk instances (one row per detected problem, unique by identity within a
 * workspace), the risk event log (ids ascend in commit order; writers serialise on a lock, see
 * asm-risk-repository.ts) and a workspace's settings per risk type.
 */
function asmRisks(dialect: Dialect): Migration {
  const t = types(dialect);
  const idColumn = t.pg ? t.bigint : 'integer';
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('asm_risk_instances')
        .addColumn('id', idColumn, (c) => (t.pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement()))
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('type_id', 'text', (c) => c.notNull())
        .addColumn('identity', t.docId, (c) => c.notNull())
        .addColumn('asset_type', 'text', (c) => c.notNull())
        .addColumn('asset_id', t.docId, (c) => c.notNull())
        .addColumn('context', t.json, (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('severity', 'text', (c) => c.notNull())
        .addColumn('severity_override', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('user_status', 'text')
        .addColumn('categories', t.json)
        .addColumn('metadata', t.json, (c) => c.notNull())
        .addColumn('evidence', t.json, (c) => c.notNull())
        .addColumn('cloud', 'text')
        .addColumn('first_computed_at', 'text', (c) => c.notNull())
        .addColumn('last_computed_at', 'text', (c) => c.notNull())
        .addColumn('resolved_at', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('asm_risk_instances_identity', ['workspace_id', 'identity'])
        .execute();
      await db.schema.createIndex('asm_risk_instances_asset').on('asm_risk_instances').columns(['workspace_id', 'asset_type', 'asset_id']).execute();
      await db.schema.createIndex('asm_risk_instances_type').on('asm_risk_instances').columns(['workspace_id', 'type_id']).execute();

      await db.schema
        .createTable('asm_risk_events')
        .addColumn('id', idColumn, (c) => (t.pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement()))
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('ts', 'text', (c) => c.notNull())
        .addColumn('op', 'text', (c) => c.notNull())
        .addColumn('src', 'text', (c) => c.notNull())
        .addColumn('src_id', 'text', (c) => c.notNull())
        .addColumn('risk_id', idColumn)
        .addColumn('risk_type', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('delta', t.json, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('asm_risk_events_workspace_id').on('asm_risk_events').columns(['workspace_id', 'id']).execute();
      await db.schema.createIndex('asm_risk_events_workspace_ts').on('asm_risk_events').columns(['workspace_id', 'ts']).execute();
      await db.schema.createIndex('asm_risk_events_risk').on('asm_risk_events').columns(['workspace_id', 'risk_id']).execute();

      await db.schema
        .createTable('asm_risk_type_settings')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer')
        .addColumn('severity', 'text')
        .addColumn('categories', t.json)
        .addColumn('config', 'text')
        .addColumn('last_disable_reason', 'text')
        .addColumn('last_severity_change_reason', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('asm_risk_type_settings_pk', ['workspace_id', 'type'])
        .execute();
    },
  };
}

/** Saved inventory queries (0007, contract §2B.9): a workspace's named query texts. */
function asmSavedQueries(dialect: Dialect): Migration {
  const t = types(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('asm_saved_queries')
        .addColumn('id', t.pg ? t.bigint : 'integer', (c) =>
          t.pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
        )
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('query_name', 'text', (c) => c.notNull())
        .addColumn('query', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('asm_saved_queries_workspace').on('asm_saved_queries').columns(['workspace_id', 'id']).execute();
    },
  };
}

/**
 * Saved hit renderings (0008, page-reader.ts): one row per document, tied to the content hash it
 * was rendered from; filled by readers, so no write path has to know about it.
 */
function documentHits(dialect: Dialect): Migration {
  const t = types(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('document_hits')
        .addColumn('index_name', 'text', (c) => c.notNull())
        .addColumn('id', t.docId, (c) => c.notNull())
        .addColumn('content_hash', 'text', (c) => c.notNull())
        .addColumn('spec', 'text', (c) => c.notNull())
        .addColumn('hit', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('document_hits_pk', ['index_name', 'id'])
        .execute();
    },
  };
}

/**
 * Fewer B-trees touched per version written (0009). Ingest writes versions of ids in random order,
 * and every index a version lands in costs a page dirtied per write, written to the WAL at commit
 * and again at checkpoint:
 * - `document_versions_time` goes: every read of versions by time (`getAt`, history ranges, late
 *   observations) names one id, whose few versions the primary key already lists in time order;
 * - on SQLite, `documents` (the current-version pointers) becomes a WITHOUT ROWID table: its rows
 *   live in its primary key's B-tree, where a rowid table kept a second B-tree for the key.
 */
function fewerVersionIndexes(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await sql`drop index if exists document_versions_time`.execute(db);
      if (dialect === 'postgres') return;
      await sql`create table documents_0009 (index_name text not null, id text not null, version integer not null, doc text, content_hash text not null, valid_from text not null, constraint documents_pk primary key (index_name, id)) without rowid`.execute(db);
      await sql`insert into documents_0009 (index_name, id, version, doc, content_hash, valid_from) select index_name, id, version, doc, content_hash, valid_from from documents order by index_name, id`.execute(db);
      await sql`drop table documents`.execute(db);
      await sql`alter table documents_0009 rename to documents`.execute(db);
    },
  };
}

/** Every migration, by name; names sort in application order. */
export function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001_initial': initial(dialect),
    '0002_asm_seeds': asmSeeds(dialect),
    '0003_documents_current_pointer': documentsPointer(dialect),
    '0004_asm_assets': asmAssets(dialect),
    '0006_asm_risks': asmRisks(dialect),
    '0005_asm_annotations': asmAnnotations(dialect),
    '0007_asm_saved_queries': asmSavedQueries(dialect),
    '0008_document_hits': documentHits(dialect),
    '0009_fewer_version_indexes': fewerVersionIndexes(dialect),
  };
}

export function migrationProvider(dialect: Dialect): MigrationProvider {
  return { getMigrations: async () => migrations(dialect) };
}
