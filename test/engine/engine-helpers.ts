/** Shared helpers for engine tests: engine factories and query builders over the fixture catalogues. */
import type { FieldCatalogue } from '../../src/model/field-def.ts';
import type { Predicate, ResolvedQuery } from '../../src/query/resolved.ts';
import { tokenize } from '../../src/model/tokenize.ts';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EmbeddedEngine, ReferenceEngine, type Doc, type SearchEngine } from '../../src/engine/index.ts';
import { fixtureCatalogues, fixtureHosts } from './fixture-catalogue.ts';

export const engineFactories: readonly { readonly name: string; readonly make: () => SearchEngine }[] = [
  { name: 'reference', make: () => new ReferenceEngine(fixtureCatalogues) },
  { name: 'embedded', make: () => new EmbeddedEngine(fixtureCatalogues) },
  { name: 'embedded/postings', make: () => new EmbeddedEngine(fixtureCatalogues, { aggregateStrategy: 'postings' }) },
  { name: 'embedded/columns', make: () => new EmbeddedEngine(fixtureCatalogues, { aggregateStrategy: 'columns' }) },
];

export function field(path: string, predicate: Predicate, catalogue: FieldCatalogue = fixtureHosts): ResolvedQuery {
  const def = catalogue.get(path);
  if (!def) throw new Error(`fixture catalogue has no field ${path}`);
  return { kind: 'field', field: def, predicate };
}

export const exists: Predicate = { op: 'exists' };

export function eq(value: string | number | boolean, caseSensitive = false): Predicate {
  return { op: 'eq', value, caseSensitive };
}

export function range(lo: number | string | undefined, hi: number | string | undefined, loInclusive = true, hiInclusive = true): Predicate {
  return { op: 'range', ...(lo === undefined ? {} : { lo }), ...(hi === undefined ? {} : { hi }), loInclusive, hiInclusive };
}

export function and(...children: ResolvedQuery[]): ResolvedQuery {
  return { kind: 'and', children };
}

export function or(...children: ResolvedQuery[]): ResolvedQuery {
  return { kind: 'or', children };
}

export function not(child: ResolvedQuery): ResolvedQuery {
  return { kind: 'not', child };
}

export function nested(child: ResolvedQuery): ResolvedQuery {
  return { kind: 'nested', root: 'services', child };
}

export function fulltext(text: string, ipRange?: { lo: string; hi: string }, phrase = false): ResolvedQuery {
  return { kind: 'fulltext', text, tokens: tokenize(text), phrase, ...(ipRange ? { ipRange } : {}) };
}

export const all: ResolvedQuery = { kind: 'all' };

/** Ids of the first 1000 hits (the test corpora are smaller). */
export function allIds(engine: SearchEngine, index: 'hosts' | 'certificates', query: ResolvedQuery): string[] {
  return engine.search(index, { query, limit: 1000 }).hits.map((h) => h.id);
}

/** Writes of one round: (document number, new document or null for a removal). */
export type WriteRound = readonly (readonly [number, Doc | null])[];

/**
 * Loads `docs` as `h<i>` into the reference and an embedded engine that compacts early, then per
 * round applies the writes to both and asserts the same answer to the round's query: derived
 * structures must follow updates, removals and compaction.
 */
export function assertAgreesThroughWrites(
  docs: readonly Doc[],
  rounds: readonly (readonly [WriteRound, ResolvedQuery])[],
  options: { readonly minDead: number; readonly limit: number },
): void {
  const engines = [new ReferenceEngine(fixtureCatalogues), new EmbeddedEngine(fixtureCatalogues, { compaction: { minDead: options.minDead, ratio: 0.2 } })];
  for (const e of engines) docs.forEach((d, i) => e.upsert('hosts', `h${i}`, d));
  for (const [writes, query] of rounds) {
    for (const e of engines) {
      for (const [at, d] of writes) {
        if (d) e.upsert('hosts', `h${at}`, d);
        else e.remove('hosts', `h${at}`);
      }
    }
    const [expected, got] = engines.map((e) => e.search('hosts', { query, limit: options.limit }));
    assert.deepEqual(got, expected);
  }
}

/**
 * Flips every `step`-th byte of the block area (after the header, before the eager section) of
 * the hosts segment in `dir`: the segment still opens, and the first decode of a block fails
 * its checksum.
 */
export function damageHostsBlocks(dir: string, step: number): void {
  const file = join(dir, readdirSync(dir).find((f) => f.startsWith('hosts-') && f.endsWith('.seg'))!);
  const b = readFileSync(file);
  const eager = b.readUInt32LE(24);
  for (let off = 40; off < b.length - eager; off += step) b[off] ^= 0xff;
  writeFileSync(file, b);
}
