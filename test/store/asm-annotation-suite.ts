/**
 * Comments and tags on ASM assets (AsmAnnotationRepository), on every dialect: ids, paging,
 * counts, tag colours, idempotence and workspace isolation.
 */
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../../src/store/index.ts';
import { createAsmContext } from '../../src/asm/index.ts';
import { FAMILIES, addComment, addTag, getAsset, listAssets, listComments, listDomainSubdomains } from '../../src/asm/assets/index.ts';
import { BULK_HOSTS, HOST_A, loadFixture } from '../http/asm-assets-fixture.ts';

const T1 = '2024-01-01T00:00:00.000Z';
const T2 = '2024-02-01T00:00:00.000Z';

export function runAsmAnnotationSuite(name: string, open: () => Promise<Store>): void {
  describe(`${name}: asm annotations`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(async () => {
      await store.close();
    });

    it('adds, pages, gets and removes comments with ascending integer ids', async () => {
      const a = store.asmAnnotations;
      const c1 = await a.addComment('w1', 'HOST', '1.1.1.1', 'first', 'me@example.test', T1);
      const c2 = await a.addComment('w1', 'HOST', '1.1.1.1', 'second **bold**', null, T2);
      await a.addComment('w1', 'HOST', '1.1.1.2', 'other host', 'me@example.test', T2);
      await a.addComment('w1', 'DOMAIN', '1.1.1.1', 'same id, other family', 'me@example.test', T2);
      assert.equal(typeof c1.commentId, 'number');
      assert.ok(c2.commentId > c1.commentId);
      assert.deepEqual(c1, {
        commentId: c1.commentId,
        workspaceId: 'w1',
        assetType: 'HOST',
        assetId: '1.1.1.1',
        markdown: 'first',
        createdBy: 'me@example.test',
        createdOn: T1,
      });
      const all = await a.listComments('w1', 'HOST', '1.1.1.1', { offset: 0, limit: 10 });
      assert.equal(all.total, 2);
      assert.deepEqual(all.items, [c1, c2]);
      const second = await a.listComments('w1', 'HOST', '1.1.1.1', { offset: 1, limit: 1 });
      assert.deepEqual(second, { items: [c2], total: 2 });
      assert.deepEqual(await a.getComment('w1', 'HOST', '1.1.1.1', c2.commentId), c2);
      assert.equal(await a.getComment('w1', 'HOST', '1.1.1.2', c2.commentId), undefined);
      assert.equal(await a.getComment('w1', 'DOMAIN', '1.1.1.1', c2.commentId), undefined);
      assert.equal(await a.getComment('w2', 'HOST', '1.1.1.1', c2.commentId), undefined);
      for (const bad of [-1, 1.5, Number.NaN, 1e20]) assert.equal(await a.getComment('w1', 'HOST', '1.1.1.1', bad), undefined);

      const counts = await a.commentCounts('w1', 'HOST', ['1.1.1.1', '1.1.1.2', '9.9.9.9']);
      assert.deepEqual([...counts.entries()].sort(), [['1.1.1.1', 2], ['1.1.1.2', 1]]);
      assert.equal((await a.commentCounts('w2', 'HOST', ['1.1.1.1'])).size, 0);

      assert.equal(await a.removeComment('w2', 'HOST', '1.1.1.1', c1.commentId), false);
      assert.equal(await a.removeComment('w1', 'HOST', '1.1.1.1', c1.commentId), true);
      assert.equal(await a.removeComment('w1', 'HOST', '1.1.1.1', c1.commentId), false);
      assert.deepEqual((await a.listComments('w1', 'HOST', '1.1.1.1', { offset: 0, limit: 10 })).items, [c2]);
      // Ids are not reused after a removal.
      const c3 = await a.addComment('w1', 'HOST', '1.1.1.1', 'third', null, T2);
      assert.ok(c3.commentId > c2.commentId);
    });

    it('tags assets by label, creating the tag once, with its colour and a default', async () => {
      const a = store.asmAnnotations;
      const prod = await a.tagAsset('w1', 'HOST', '1.1.1.1', 'prod', '#ff0000', '#ffffff', T1);
      assert.deepEqual(prod, { tagId: prod.tagId, workspaceId: 'w1', label: 'prod', color: '#ff0000', createdAt: T1 });
      // Idempotent, and a missing colour keeps the tag's.
      const again = await a.tagAsset('w1', 'HOST', '1.1.1.1', 'prod', null, '#ffffff', T2);
      assert.deepEqual(again, prod);
      const plain = await a.tagAsset('w1', 'HOST', '1.1.1.2', 'plain', null, '#ffffff', T2);
      assert.equal(plain.color, '#ffffff');
      // A colour given for an existing tag becomes its colour everywhere.
      const recoloured = await a.tagAsset('w1', 'CERT', 'ab'.repeat(32), 'prod', '#00ff00', '#ffffff', T2);
      assert.equal(recoloured.tagId, prod.tagId);
      assert.equal(recoloured.color, '#00ff00');

      assert.deepEqual((await a.listTags('w1')).map((t) => [t.label, t.color]), [['prod', '#00ff00'], ['plain', '#ffffff']]);
      assert.deepEqual(await a.listTags('w2'), []);

      const of = await a.tagsOf('w1', 'HOST', ['1.1.1.1', '1.1.1.2', '1.1.1.3']);
      assert.deepEqual(of.get('1.1.1.1')?.map((t) => t.label), ['prod']);
      assert.deepEqual(of.get('1.1.1.2')?.map((t) => [t.label, t.color]), [['plain', '#ffffff']]);
      assert.equal(of.has('1.1.1.3'), false);

      await a.tagAsset('w1', 'HOST', '1.1.1.10', 'prod', null, '#ffffff', T2);
      assert.deepEqual(await a.assetsTagged('w1', 'HOST', [prod.tagId]), ['1.1.1.1', '1.1.1.10']);
      assert.deepEqual(await a.assetsTagged('w1', 'HOST', [prod.tagId, plain.tagId]), ['1.1.1.1', '1.1.1.10', '1.1.1.2']);
      assert.deepEqual(await a.assetsTagged('w1', 'CERT', [prod.tagId]), ['ab'.repeat(32)]);
      assert.deepEqual(await a.assetsTagged('w2', 'HOST', [prod.tagId]), []);
      assert.deepEqual(await a.assetsTagged('w1', 'HOST', []), []);

      assert.equal(await a.untagAsset('w1', 'HOST', '1.1.1.1', 'prod'), true);
      assert.equal(await a.untagAsset('w1', 'HOST', '1.1.1.1', 'prod'), false);
      assert.equal(await a.untagAsset('w1', 'HOST', '1.1.1.1', 'nope'), false);
      assert.equal(await a.untagAsset('w2', 'HOST', '1.1.1.10', 'prod'), false);
      assert.deepEqual(await a.assetsTagged('w1', 'HOST', [prod.tagId]), ['1.1.1.10']);
    });

    it('keeps each workspace\'s labels apart', async () => {
      const a = store.asmAnnotations;
      const one = await a.tagAsset('w1', 'DOMAIN', 'example.com', 'shared', '#111111', '#ffffff', T1);
      const two = await a.tagAsset('w2', 'DOMAIN', 'example.com', 'shared', '#222222', '#ffffff', T1);
      assert.notEqual(one.tagId, two.tagId);
      assert.equal((await a.tagsOf('w1', 'DOMAIN', ['example.com'])).get('example.com')?.[0]?.color, '#111111');
      assert.equal((await a.tagsOf('w2', 'DOMAIN', ['example.com'])).get('example.com')?.[0]?.color, '#222222');
    });

    it('serves the asset use cases on this dialect: paging, tag filters, comments, subdomains', async () => {
      const ctx = createAsmContext(store);
      await loadFixture(store, 'w1');
      const target = { baseUrl: 'http://x/api', collectionUrl: 'http://x/api/v1/assets/hosts', includeTrail: false };
      const hosts = FAMILIES.hosts;
      const value = (r: { ok: boolean }) => (r as unknown as { value: any }).value;
      const page = value(await listAssets(ctx, 'w1', hosts, { pageNumber: '2', pageSize: '10' }, target));
      assert.deepEqual([page.pageNumber, page.totalPages, page.totalItems, page.assets.length], [2, 3, BULK_HOSTS + 2, 10]);
      assert.ok((await addTag(ctx, 'w1', { family: hosts, rawId: HOST_A }, { name: 'Dialect' })).ok);
      assert.deepEqual(value(await listAssets(ctx, 'w1', hosts, { tag: ['dialect'] }, target)).assets.map((a: any) => a.assetId), [HOST_A]);
      assert.equal(value(await listAssets(ctx, 'w1', hosts, { tag: ['dia'], tagOperator: 'not contains' }, target)).totalItems, BULK_HOSTS + 1);
      assert.ok((await addComment(ctx, 'w1', { family: hosts, rawId: HOST_A }, { markdown: 'x' }, 'me@example.test')).ok);
      assert.equal(value(await listComments(ctx, 'w1', { family: hosts, rawId: HOST_A }, {})).totalItems, 1);
      const host = value(await getAsset(ctx, 'w1', { family: hosts, rawId: HOST_A }, target));
      assert.deepEqual(host.data.protocols.map((p: any) => p.port), [22, 443]);
      assert.equal(host.comments.totalComments, 1);
      assert.deepEqual(host.tags, [{ name: 'Dialect', color: '#ffffff' }]);
      const subs = value(await listDomainSubdomains(ctx, 'w1', 'example.com', {}, target));
      assert.deepEqual(subs.subdomains.map((x: any) => x.subdomain), ['api.example.com', 'www.example.com']);
      assert.equal((await getAsset(ctx, 'w2', { family: hosts, rawId: HOST_A }, target)).ok, false);
    });

    it('reads many assets at once beyond one parameter chunk', async () => {
      const a = store.asmAnnotations;
      const ids = Array.from({ length: 1200 }, (_, i) => `10.0.${Math.floor(i / 256)}.${i % 256}`);
      for (const id of ids.filter((_, i) => i % 400 === 0)) {
        await a.addComment('w1', 'HOST', id, 'x', null, T1);
        await a.tagAsset('w1', 'HOST', id, 't', null, '#ffffff', T1);
      }
      assert.equal((await a.commentCounts('w1', 'HOST', ids)).size, 3);
      assert.equal((await a.tagsOf('w1', 'HOST', ids)).size, 3);
    });
  });
}
