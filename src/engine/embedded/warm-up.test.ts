import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { catalogueFor } from '../../model/field-catalogue.ts';
import { compileQuery } from '../../query/index.ts';
import { EmbeddedEngine } from './embedded-engine.ts';
import { runWarmSteps, type WarmStep } from './warm-up.ts';
import { realisticHost } from '../../../test/engine/realistic-hosts.ts';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('engine warm-up', () => {
  it('runs one step call per turn of the event loop, none in the caller turn, and stops when told', async () => {
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const calls: { turn: number; budget: number }[] = [];
    const never: WarmStep = (budget) => (calls.push({ turn: turns, budget }), false);
    const once: WarmStep = (budget) => (calls.push({ turn: turns, budget }), true);
    const running = runWarmSteps([once, once, never], () => calls.length >= 6);
    assert.equal(calls.length, 0, 'nothing runs in the caller turn');
    await running;
    ticking = false;
    assert.equal(calls.length, 6);
    for (let i = 1; i < calls.length; i++) assert.ok(calls[i].turn > calls[i - 1].turn, `call ${i} shares a turn with the previous one`);
    for (const c of calls) assert.ok(Number.isInteger(c.budget) && c.budget >= 1);
  });

  for (const reopened of [false, true]) {
    it(`answers as an engine never warmed, while warming and after, with writes in between${reopened ? ' (reopened from segments)' : ''}`, async () => {
      await answersAsCold(reopened);
    });
  }
});

/** A warmed engine and a cold one, both in memory or both reopened from the same segments. */
async function answersAsCold(reopened: boolean): Promise<void> {
  const catalogues = { hosts: catalogueFor('hosts'), certificates: catalogueFor('certificates') };
  const dir = reopened ? mkdtempSync(join(tmpdir(), 'periscope-warm-')) : undefined;
  try {
    if (dir) {
      const first = new EmbeddedEngine(catalogues, { dir });
      first.persistence!.open();
      for (let i = 0; i < 400; i++) first.upsert('hosts', realisticHost(i).id, realisticHost(i).doc);
      first.persistence!.checkpoint();
      first.persistence!.close();
    }
    const open = () => {
      const e = new EmbeddedEngine(catalogues, dir === undefined ? {} : { dir });
      if (dir) assert.equal(e.persistence!.open().loaded, true);
      return e;
    };
    const warmed = open();
    const cold = open();
    const put = (i: number) => {
      const { id, doc } = realisticHost(i);
      warmed.upsert('hosts', id, doc);
      cold.upsert('hosts', id, doc);
    };
    const queries = ['services.banner: "Server: nginx"', 'services.banner: nginx', 'ip: 10.0.0.0/12', 'nginx', 'acme'].map((text) => {
      const r = compileQuery(text, catalogues.hosts);
      assert.ok(r.ok, text);
      return r.query;
    });
    const agree = (when: string) => {
      for (const query of queries) {
        assert.deepEqual(warmed.search('hosts', { query, limit: 50 }), cold.search('hosts', { query, limit: 50 }), when);
      }
    };
    if (!dir) for (let i = 0; i < 400; i++) put(i);
    const warming = warmed.warm(new AbortController().signal);
    for (let k = 0; k < 10; k++) {
      await turn();
      put(400 + k);
      put(k * 3);
      agree(`while warming, turn ${k}`);
    }
    await warming;
    for (let i = 410; i < 460; i++) put(i);
    agree('after warming');
    await warmed.close();
    await cold.close();
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
