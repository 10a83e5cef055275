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

/** Every migration, by name; names sort in application order. */
export function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001_initial': initial(dialect),
    '0002_asm_seeds': asmSeeds(dialect),
    '0007_asm_saved_queries': asmSavedQueries(dialect),
  };
}

export function migrationProvider(dialect: Dialect): MigrationProvider {
  return { getMigrations: async () => migrations(dialect) };
}
