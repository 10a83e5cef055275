/**
 * The inventory engine decides bare full-text terms itself (from each document's values by path);
 * its answers must be the reference evaluator's, and no marker may stay in a document.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReferenceEngine } from '../../engine/reference/index.ts';
import type { Asset } from '../../model/asm-asset.ts';
import { inventoryCatalogue } from './inventory-catalogue.ts';
import { compileInventoryQuery } from './compile-inventory-query.ts';
import { InventoryEngine } from './inventory-engine.ts';
import type { InventoryEntry } from './inventory-documents.ts';

const SOFTWARE = ['nginx', 'Apache httpd', 'OpenSSH', 'Microsoft IIS', 'lighttpd'];
const COUNTRIES = ['Germany', 'United States', 'Japan'];

function entries(): InventoryEntry[] {
  const out: InventoryEntry[] = [];
  for (let i = 0; i < 60; i++) {
    const ip = `203.0.113.${i}`;
    const services = [
      { port: 22, service_name: 'SSH', software: [{ product: SOFTWARE[2], vendor: 'OpenBSD' }] },
      ...(i % 2 ? [{ port: 80, service_name: 'HTTP', software: [{ product: SOFTWARE[i % 5], vendor: 'x' }], http: { response: { html_title: `Welcome to ${SOFTWARE[i % 5]} ${i}` } } }] : []),
      ...(i % 3 ? [{ port: 443, service_name: 'HTTP', banner: `Server: ${SOFTWARE[(i + 1) % 5]}` }] : []),
    ];
    const host = { ip, services, location: { country: COUNTRIES[i % 3], country_code: ['DE', 'US', 'JP'][i % 3] }, dns: { names: [`h${i}.example.net`] } };
    const asset = { workspaceId: 'w', type: 'HOST', assetId: ip, isSeed: false, source: 'CENSYS_SCAN', associatedAt: '', updatedAt: '', trail: [], cloud: null, data: {} } as Asset;
    const doc: Record<string, unknown> = { type: 'HOST', asset_id: ip, source: 'CENSYS_SCAN', tags: i % 4 ? [] : ['nginx-fleet'], risks: [], host };
    doc['host.services'] = services;
    out.push({ key: `0:${String(i).padStart(3, '0')}`, type: 'HOST', asset, doc });
  }
  out.push({
    key: '1:example.net',
    type: 'DOMAIN',
    asset: { workspaceId: 'w', type: 'DOMAIN', assetId: 'example.net', isSeed: true, source: 'Seed', associatedAt: '', updatedAt: '', trail: [], cloud: null, data: {} },
    doc: { type: 'DOMAIN', asset_id: 'example.net', source: 'Seed', tags: [], risks: [], domain: { name: 'example.net', subdomains: ['h1.example.net'] } },
  });
  return out;
}

test('bare terms answer exactly as the reference evaluator, and leave no marker behind', () => {
  const list = entries();
  const fast = new InventoryEngine(list);
  const cat = inventoryCatalogue();
  const ref = new ReferenceEngine({ hosts: cat, certificates: cat });
  for (const e of list) ref.upsert('certificates', e.key, e.doc);
  const sizes = new Map<string, number>();
  for (const text of [
    'nginx',
    'NGINX',
    '"Apache httpd"',
    'welcome',
    'ssh or not nginx',
    'nginx and host.services.port: 443',
    'not nginx',
    'Germany and (lighttpd or iis)',
    'example.net',
    'openssh*',
    'nginx-fleet',
    'host.services: (port: 80 and service_name: HTTP) and nginx',
  ]) {
    const q = compileInventoryQuery(text, new Date());
    assert.ok(q.ok, text);
    const got = fast.matching(q.value).map((e) => e.key);
    const want = ref.search('certificates', { query: q.value, limit: 1000 }).hits.map((h) => h.id);
    assert.deepEqual(got, want, text);
    sizes.set(text, got.length);
    assert.equal(fast.page(q.value, [], 5).total, want.length, text);
  }
  // The cases are not vacuous: terms match some assets and not others.
  for (const t of ['nginx', 'welcome', 'example.net', 'nginx-fleet', 'openssh*']) assert.ok(sizes.get(t)! > 0 && sizes.get(t)! < list.length, t);
  assert.equal(list.filter((e) => Object.keys(e.doc).some((k) => k.startsWith('\u0000'))).length, 0);
});
