import type { Kysely } from 'kysely';
import type { Database, Dialect } from './database.ts';
import type { Store } from './store.ts';
import { KyselyCommentRepository } from './comment-repository.ts';
import { KyselyDocumentRepository } from './document-repository.ts';
import { KyselyQuotaRepository } from './quota-repository.ts';
import { KyselySettingsRepository } from './settings-repository.ts';
import { KyselyTagRepository } from './tag-repository.ts';
import { KyselyUserRepository } from './user-repository.ts';
import { KyselyAsmSavedQueryRepository } from './asm-saved-query-repository.ts';
import { KyselySeedRepository } from './asm-seed-repository.ts';
import { KyselyPageReader } from './page-reader.ts';
import { KyselyAsmAssetRepository } from './asm-asset-repository.ts';
import { KyselyAsmLogbookRepository } from './asm-logbook-repository.ts';
import { KyselyAsmAnnotationRepository } from './asm-annotation-repository.ts';
import { KyselyAsmRiskRepository } from './asm-risk-repository.ts';

/** The Store on one Kysely instance; the dialect only matters to the migrations and to openStore. */
export class KyselyStore implements Store {
  readonly dialect: Dialect;
  /** The underlying database, for code that queries the store's tables directly (the PostgreSQL engine). */
  readonly db: Kysely<Database>;
  readonly documents: KyselyDocumentRepository;
  readonly users: KyselyUserRepository;
  readonly comments: KyselyCommentRepository;
  readonly tags: KyselyTagRepository;
  readonly quota: KyselyQuotaRepository;
  readonly settings: KyselySettingsRepository;
  readonly asmSavedQueries: KyselyAsmSavedQueryRepository;
  readonly seeds: KyselySeedRepository;
  readonly pages: KyselyPageReader;
  readonly asmAssets: KyselyAsmAssetRepository;
  readonly asmLogbook: KyselyAsmLogbookRepository;
  readonly asmAnnotations: KyselyAsmAnnotationRepository;
  readonly asmRisks: KyselyAsmRiskRepository;

  constructor(db: Kysely<Database>, dialect: Dialect) {
    this.db = db;
    this.dialect = dialect;
    this.documents = new KyselyDocumentRepository(db, dialect);
    this.users = new KyselyUserRepository(db);
    this.comments = new KyselyCommentRepository(db);
    this.tags = new KyselyTagRepository(db);
    this.quota = new KyselyQuotaRepository(db);
    this.settings = new KyselySettingsRepository(db);
    this.asmSavedQueries = new KyselyAsmSavedQueryRepository(db);
    this.seeds = new KyselySeedRepository(db);
    this.pages = new KyselyPageReader(db, dialect);
    this.documents.onWritten = (index, ids) => this.pages.forget(index, ids);
    this.asmAssets = new KyselyAsmAssetRepository(db, dialect);
    this.asmLogbook = new KyselyAsmLogbookRepository(db, dialect);
    this.asmAnnotations = new KyselyAsmAnnotationRepository(db);
    this.asmRisks = new KyselyAsmRiskRepository(db, dialect);
  }

  async close(): Promise<void> {
    await this.pages.close();
    await this.db.destroy();
  }
}
