/**
 * importJsonl loads through Indexer.putAll, which hands a line's text to the store's writer thread
 * when the validated document is the line as parsed: what is stored must be the canonical JSON of
 * the validated document either way (normalised ids, repeated keys, -0, key order), and the
 * engine must hold the same documents.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { openStore } from '../../store/index.ts';
import { canonicalJson } from '../../store/canonical-json.ts';
import { catalogueFor } from '../../model/field-catalogue.ts';
import type { IndexName } from '../../model/field-def.ts';
import { ReferenceEngine, type Doc } from '../../engine/index.ts';
import { Indexer } from '../../search/indexer.ts';
import { importJsonl } from './import-jsonl.ts';
import { validateDocument } from './validate-document.ts';

const catalogues = { hosts: catalogueFor('hosts'), certificates: catalogueFor('certificates') };

class RecordingEngine extends ReferenceEngine {
  readonly upserted = new Map<string, Doc>();
  override upsert(index: IndexName, id: string, doc: Doc): void {
    if (index === 'hosts') this.upserted.set(id, doc);
    super.upsert(index, id, doc);
  }
}

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('importJsonl', () => {
  it('stores the canonical JSON of each validated document, from its line or not, in batches on the writer thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'periscope-import-jsonl-'));
    dirs.push(dir);
    const store = await openStore({ kind: 'sqlite', file: join(dir, 'store.db') });
    try {
      const lines: string[] = [];
      for (let i = 0; i < 40; i++) {
        lines.push(`{"services":[{"port":${i + 1},"banner":"b${i}","service_name":"HTTP"}],"ip":"192.0.2.${i}","last_updated_at":"2026-10-0${1 + (i % 9)}T00:00:00Z","location":{"country":"X","city":"Y"}}`);
      }
      lines.push('{"ip":"2001:DB8::1","services":[{"port":22}]}'); // the ip is normalised: not the line
      lines.push('{"ip":"198.51.100.1","a":1,"a":2,"z":-0,"nested":{"b":[1,{"d":1,"c":2}],"a":"\\u00e9\\u0000"}}');
      lines.push('not json');
      lines.push('');
      lines.push('{"ip":"192.0.2.5","services":[{"port":8080}],"last_updated_at":"2026-10-20T00:00:00Z"}'); // updates an earlier line
      const now = new Date('2026-11-01T00:00:00Z');
      const engine = new RecordingEngine(catalogues);
      const indexer = new Indexer({ store, engine, catalogues, now: () => now });
      const progress: number[] = [];
      const report = await importJsonl(indexer, 'hosts', Readable.from(['\uFEFF' + lines.join('\n') + '\n']), { batchSize: 7, now, onProgress: (r) => progress.push(r.created + r.updated + r.unchanged) });
      assert.deepEqual({ ...report, rejected: report.rejected.map((r) => r.line) }, { read: 44, created: 42, updated: 1, unchanged: 0, rejected: [43] });
      assert.deepEqual(progress, [7, 14, 21, 28, 35, 42, 43]);

      const expected = new Map<string, Record<string, unknown>>();
      for (const line of lines) {
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          continue;
        }
        const v = validateDocument('hosts', value, now);
        if (v.ok) expected.set(v.id, v.doc);
      }
      assert.ok(expected.has('2001:db8::1'));
      const rows = await store.db.selectFrom('document_versions as v').innerJoin('documents as d', (j) => j.onRef('d.id', '=', 'v.id').onRef('d.version', '=', 'v.version')).select(['v.id', 'v.doc']).execute();
      assert.equal(rows.length, expected.size);
      for (const r of rows) assert.equal(r.doc, canonicalJson(expected.get(r.id)), r.id);
      assert.equal(engine.upserted.size, expected.size);
      for (const [id, doc] of expected) assert.equal(canonicalJson(engine.upserted.get(id)), canonicalJson(doc), id);
    } finally {
      await store.close();
    }
  });
});
