/**
 * Keeps each workspace's assets in step with its seeds and with the indexes:
 * - a seed change re-evaluates the workspace (SeedsChanged);
 * - newly indexed documents (Indexer.onChanged) are matched against every workspace's seeds,
 *   names and known assets, and only the workspaces they can touch are re-evaluated;
 * - `catchUp()` re-evaluates every workspace with seeds, for data ingested by the CLI while no
 *   server was running.
 * Evaluations of one workspace never overlap; a request arriving while one is queued joins it.
 * Each evaluation diffs against the stored assets, writes the changes with their logbook events
 * in one transaction and then announces them on AssetsChanged.
 */
import type { IndexName } from '../../model/field-def.ts';
import type { Asset, AssetType } from '../../model/asm-asset.ts';
import { ASSET_TYPES } from '../../model/asm-asset.ts';
import type { Seed } from '../../store/store.ts';
import type { AsmContext } from '../asm-context.ts';
import type { AssetsChange } from '../assets-changed.ts';
import { computeAssets } from './compute-assets.ts';
import { diffAssets, type AssetDiff } from './diff-assets.ts';
import { computeIncremental } from './incremental.ts';
import { DiscoveryIndex, type Doc } from './discovery-index.ts';
import { addressTrail, cleanName, domainOf, isEmptyScope, seedScope, type SeedScope } from './seed-scope.ts';

export interface EvaluationResult {
  readonly workspaceId: string;
  readonly upserted: number;
  readonly removed: number;
  readonly events: number;
}

interface Watch {
  readonly scope: SeedScope;
  /** Asset ids discovery holds, so a changed document that used to matter is noticed. */
  readonly hosts: Set<string>;
  readonly certs: Set<string>;
  /** Hosts that only lend the workspace a reverse-DNS name. */
  readonly nameHosts: Set<string>;
}

const ALL = { offset: 0, limit: 1_000_000_000 };

export class Discovery {
  readonly #asm: AsmContext;
  readonly #index: DiscoveryIndex;
  readonly #queue = new Map<string, Promise<unknown>>();
  readonly #queued = new Map<string, Promise<EvaluationResult>>();
  #watches: Map<string, Watch> | undefined;
  #loading: Promise<Map<string, Watch>> | undefined;

  constructor(asm: AsmContext) {
    if (!asm.search) throw new Error('discovery needs the search context (AsmContext.search)');
    this.#asm = asm;
    this.#index = new DiscoveryIndex(asm.search);
    asm.seedsChanged.subscribe((change) => this.evaluate(change.workspaceId).then(() => {}));
  }

  /** Re-evaluates a workspace fully; resolves once its assets and logbook are written and announced. */
  evaluate(workspaceId: string, touchedDocs?: { hosts: readonly string[]; certs: readonly string[] }): Promise<EvaluationResult> {
    // Touched documents are reported by every run; only a plain request may join a queued run.
    if (!touchedDocs) {
      const queued = this.#queued.get(workspaceId);
      if (queued) return queued;
    }
    const previous = this.#queue.get(workspaceId) ?? Promise.resolve();
    const run = previous
      .catch(() => {})
      .then(() => {
        if (this.#queued.get(workspaceId) === run) this.#queued.delete(workspaceId);
        return this.#evaluateNow(workspaceId, touchedDocs);
      });
    if (!touchedDocs) this.#queued.set(workspaceId, run);
    const settled = run.catch(() => {});
    this.#queue.set(workspaceId, settled);
    void settled.then(() => {
      if (this.#queue.get(workspaceId) === settled) this.#queue.delete(workspaceId);
    });
    return run;
  }

  /** Indexer.onChanged: re-evaluates only the workspaces the changed documents can touch. */
  async documentsChanged(index: IndexName, ids: readonly string[]): Promise<void> {
    const watches = await this.#loadWatches();
    if (watches.size === 0 || ids.length === 0) return;
    const plain = index === 'hosts' ? ids.filter((id) => !id.includes('+')) : [...ids];
    if (plain.length === 0) return;
    const needDocs = [...watches.values()].some((w) => w.scope.domains.length > 0 || w.scope.asns.size > 0);
    const docs = needDocs ? await this.#index.documents(index, plain) : new Map<string, Doc>();
    const jobs: Promise<unknown>[] = [];
    for (const [workspaceId, watch] of watches) {
      const hit = plain.filter((id) => (index === 'hosts' ? hostMatters(watch, id, docs.get(id)) : certMatters(watch, id, docs.get(id))));
      if (hit.length === 0) continue;
      jobs.push(
        this.evaluate(workspaceId, index === 'hosts' ? { hosts: hit, certs: [] } : { hosts: [], certs: hit }).catch((err) => this.#report(err)),
      );
    }
    await Promise.all(jobs);
  }

  /** Re-evaluates every workspace that has seeds, one at a time; `log` hears one line per workspace. */
  async catchUp(log: (line: string) => void = () => {}): Promise<EvaluationResult[]> {
    const watches = await this.#loadWatches(true);
    const out: EvaluationResult[] = [];
    for (const workspaceId of watches.keys()) {
      try {
        const r = await this.evaluate(workspaceId);
        out.push(r);
        log(`discovery: workspace ${workspaceId}: ${r.upserted} assets written, ${r.removed} removed, ${r.events} logbook events`);
      } catch (err) {
        this.#report(err);
      }
    }
    return out;
  }

  #report(err: unknown): void {
    this.#asm.reportError?.(err);
  }

  async #loadWatches(reload = false): Promise<Map<string, Watch>> {
    if (this.#watches && !reload) return this.#watches;
    if (!this.#loading || reload) {
      this.#loading = (async () => {
        const map = new Map<string, Watch>();
        for (const ws of await this.#asm.store.users.listWorkspaces()) {
          const seeds = await this.#asm.store.seeds.list(ws.id);
          if (seeds.length === 0) continue;
          map.set(ws.id, await this.#watchOf(ws.id, seeds));
        }
        // Evaluations that finished meanwhile already put fresher watches in place.
        if (this.#watches) for (const [k, v] of this.#watches) map.set(k, v);
        this.#watches = map;
        return map;
      })();
    }
    return this.#loading;
  }

  async #watchOf(workspaceId: string, seeds: readonly Seed[]): Promise<Watch> {
    return {
      scope: seedScope(seeds),
      hosts: new Set(await this.#asm.store.asmAssets.ids(workspaceId, 'HOST')),
      certs: new Set(await this.#asm.store.asmAssets.ids(workspaceId, 'CERT')),
      nameHosts: new Set(
        (await this.#asm.store.asmAssets.list(workspaceId, 'SUBDOMAIN', ALL)).items.flatMap((s) =>
          Array.isArray(s.data.reverseHosts) ? (s.data.reverseHosts as string[]) : [],
        ),
      ),
    };
  }

  async #evaluateNow(workspaceId: string, touchedDocs?: { hosts: readonly string[]; certs: readonly string[] }): Promise<EvaluationResult> {
    const store = this.#asm.store;
    const seeds = await store.seeds.list(workspaceId);
    const now = this.#asm.now().toISOString();
    let diff: AssetDiff;
    let computedHosts: Iterable<string>;
    let computedCerts: Iterable<string>;
    let nameHosts: Set<string>;
    if (touchedDocs) {
      // Only what the changed documents can affect (incremental.ts).
      const inc = await computeIncremental(workspaceId, seeds, this.#index, store.asmAssets, touchedDocs);
      diff = diffAssets(workspaceId, inc.stored, inc.computed, now);
      const watch = this.#watches?.get(workspaceId);
      const hosts = new Set(watch?.hosts ?? []);
      const certs = new Set(watch?.certs ?? []);
      for (const a of inc.stored) (a.type === 'HOST' ? hosts : a.type === 'CERT' ? certs : undefined)?.delete(a.assetId);
      for (const a of inc.computed.values()) (a.type === 'HOST' ? hosts : a.type === 'CERT' ? certs : undefined)?.add(a.assetId);
      computedHosts = hosts;
      computedCerts = certs;
      nameHosts = new Set([...(watch?.nameHosts ?? []), ...inc.nameHosts]);
    } else {
      const full = await computeAssets(seeds, this.#index);
      const stored: Asset[] = [];
      for (const type of ASSET_TYPES) stored.push(...(await store.asmAssets.list(workspaceId, type, ALL)).items);
      diff = diffAssets(workspaceId, stored, full.assets, now);
      const values = [...full.assets.values()];
      computedHosts = values.filter((a) => a.type === 'HOST').map((a) => a.assetId);
      computedCerts = values.filter((a) => a.type === 'CERT').map((a) => a.assetId);
      nameHosts = full.nameHosts;
    }
    if (diff.upsert.length > 0 || diff.remove.length > 0) await store.asmAssets.apply(workspaceId, diff, diff.events);

    // Keep the watch current without re-reading the store.
    const scope = seedScope(seeds);
    const hosts = new Set(computedHosts);
    const certs = new Set(computedCerts);
    if (this.#watches) {
      if (isEmptyScope(scope)) this.#watches.delete(workspaceId);
      else this.#watches.set(workspaceId, { scope, hosts, certs, nameHosts });
    }

    const upsertedKeys = new Set(diff.upsert.map((a) => `${a.type}\u0000${a.assetId}`));
    const touched: { type: AssetType; assetId: string }[] = [];
    for (const [type, ids] of [['HOST', touchedDocs?.hosts ?? []], ['CERT', touchedDocs?.certs ?? []]] as const) {
      for (const id of ids) {
        const known = type === 'HOST' ? hosts.has(id) : certs.has(id);
        if (known && !upsertedKeys.has(`${type}\u0000${id}`)) touched.push({ type, assetId: id });
      }
    }
    const change: AssetsChange = { workspaceId, upserted: diff.upsert, removed: diff.remove, touched };
    await this.#asm.assetsChanged.emit(change, (err) => this.#report(err));
    return { workspaceId, upserted: diff.upsert.length, removed: diff.remove.length, events: diff.events.length };
  }
}

function hostMatters(watch: Watch, ip: string, doc: Doc | undefined): boolean {
  if (watch.hosts.has(ip) || watch.nameHosts.has(ip)) return true;
  const asn = (doc?.autonomous_system as { asn?: unknown } | undefined)?.asn;
  if (addressTrail(watch.scope, ip, typeof asn === 'number' ? asn : undefined)) return true;
  if (!doc || watch.scope.domains.length === 0) return false;
  const dns = (doc.dns ?? {}) as { names?: unknown; reverse_dns?: { names?: unknown } };
  const all = [...(Array.isArray(dns.names) ? dns.names : []), ...(Array.isArray(dns.reverse_dns?.names) ? dns.reverse_dns.names : [])];
  // A host outside the workspace that presents one of its certificates changes nothing: a
  // certificate's hosts are the workspace's hosts presenting it.
  return all.some((n) => {
    const c = cleanName(n);
    return c !== undefined && domainOf(watch.scope, c) !== undefined;
  });
}

function certMatters(watch: Watch, fp: string, doc: Doc | undefined): boolean {
  if (watch.certs.has(fp)) return true;
  if (!doc || watch.scope.domains.length === 0) return false;
  const names = Array.isArray(doc.names) ? doc.names : [];
  return names.some((n) => {
    const c = cleanName(typeof n === 'string' ? n.replace(/^\*\./, '') : n);
    return c !== undefined && domainOf(watch.scope, c) !== undefined;
  });
}

/** Starts discovery on `asm` (following its seed changes) and returns `asm`, for one-expression wiring. */
export function withDiscovery(asm: AsmContext): AsmContext {
  new Discovery(asm);
  return asm;
}
