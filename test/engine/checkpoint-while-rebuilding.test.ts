/**
 * A damaged block met at first use empties the engine, which the Indexer then reloads from the
 * store. Until that reload is done the engine holds part of the store at most: a checkpoint
 * meanwhile (a write reaching the checkpoint threshold, or a clean close) must not list it as
 * the segments, or the next start would trust a partial index and replay only the journal tail.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedEngine } from '../../src/engine/index.ts';
import { fixtureCatalogues } from './fixture-catalogue.ts';
import { damageHostsBlocks, eq, field } from './engine-helpers.ts';

function hostDoc(ip: string, service: string): Record<string, unknown> {
  return { ip, services: [{ port: 22, service_name: service, banner: `${service} banner ${ip}` }] };
}

it('no checkpoint, nor a clean close, writes segments while the engine waits for its rebuild', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-rebuilding-'));
  try {
    const a = new EmbeddedEngine(fixtureCatalogues, { dir });
    a.persistence!.open();
    for (let i = 0; i < 200; i++) a.upsert('hosts', `10.8.0.${i}`, hostDoc(`10.8.0.${i}`, i % 2 ? 'SSH' : 'HTTP'));
    await a.close();
    // Damage every block of the hosts segment (the eager section stays intact, so it opens).
    damageHostsBlocks(dir, 97);

    const e = new EmbeddedEngine(fixtureCatalogues, { dir });
    let corrupt: Error | undefined;
    // The listener stands for the Indexer's reload, which has not finished yet.
    e.persistence!.onCorrupt((err) => (corrupt = err));
    assert.ok(e.persistence!.open().loaded);
    assert.throws(() => e.search('hosts', { query: field('services.service_name', eq('ssh')), limit: 1 }));
    assert.ok(corrupt && e.persistence!.broken, 'the damaged block was met');
    assert.equal(existsSync(join(dir, 'manifest.json')), false, 'the manifest is gone');
    // The reload has put a few documents back, and a write came in.
    e.persistence!.journal('hosts', ['10.8.1.1']);
    e.upsert('hosts', '10.8.0.1', hostDoc('10.8.0.1', 'SSH'));
    e.upsert('hosts', '10.8.1.1', hostDoc('10.8.1.1', 'FTP'));
    e.persistence!.applied('hosts', ['10.8.1.1']);
    assert.equal(e.persistence!.checkpoint().bytes, 0, 'a checkpoint writes nothing');
    assert.equal(existsSync(join(dir, 'manifest.json')), false, 'no manifest lists the partial index');
    await e.close();
    assert.equal(existsSync(join(dir, 'manifest.json')), false, 'a close during the rebuild lists nothing either');

    const next = new EmbeddedEngine(fixtureCatalogues, { dir });
    const r = next.persistence!.open();
    assert.equal(r.loaded, false, 'the next start reloads the whole store');
    await next.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('ids written during the reload stay journaled through a checkpoint made before their refresh', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-rebuilding-'));
  try {
    const a = new EmbeddedEngine(fixtureCatalogues, { dir });
    a.persistence!.open();
    for (let i = 0; i < 50; i++) a.upsert('hosts', `10.8.0.${i}`, hostDoc(`10.8.0.${i}`, 'SSH'));
    await a.close();
    // Damage every block of the hosts segment (the eager section stays intact, so it opens).
    damageHostsBlocks(dir, 97);

    const e = new EmbeddedEngine(fixtureCatalogues, { dir });
    e.persistence!.onCorrupt(() => undefined);
    assert.ok(e.persistence!.open().loaded);
    assert.throws(() => e.search('hosts', { query: field('services.service_name', eq('ssh')), limit: 1 }));
    // A write during the reload: journaled, indexed by its put (applied), but the reload's scan may
    // have read it before, so it is refreshed after the reload.
    e.persistence!.journal('hosts', ['10.8.1.1']);
    e.upsert('hosts', '10.8.1.1', hostDoc('10.8.1.1', 'FTP'));
    e.persistence!.applied('hosts', ['10.8.1.1']);
    const written = e.persistence!.journaledSinceBroken();
    assert.deepEqual(written.get('hosts'), ['10.8.1.1']);
    e.persistence!.rebuilt();
    // Another write reaches the checkpoint threshold before the refresh is done; then a crash.
    e.persistence!.checkpoint();
    e.persistence!.close();
    const next = new EmbeddedEngine(fixtureCatalogues, { dir });
    const r = next.persistence!.open();
    assert.ok(r.loaded);
    assert.deepEqual(r.tail.get('hosts'), ['10.8.1.1'], 'the id is read again from the store at the next start');
    next.persistence!.close();

    // Refreshed (applied): the next checkpoint covers it.
    const f = new EmbeddedEngine(fixtureCatalogues, { dir });
    assert.ok(f.persistence!.open().loaded);
    f.persistence!.checkpoint();
    f.persistence!.close();
    const g = new EmbeddedEngine(fixtureCatalogues, { dir });
    const r2 = g.persistence!.open();
    assert.ok(r2.loaded);
    assert.equal(r2.tail.get('hosts'), undefined);
    g.persistence!.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
