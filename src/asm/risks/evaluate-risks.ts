/**
 * Risk evaluation of a workspace's assets: read the current host and certificate documents (and
 * the bucket facts discovery keeps on storage assets), run the detectors with the workspace's
 * type settings, and write what changed — instances, risk events, then logbook events.
 * Evaluations of one workspace run one at a time, so two changes never race on an identity.
 */
import type { Asset } from '../../model/asm-asset.ts';
import type { RiskAssetType } from '../../model/asm-risk.ts';
import type { AsmContext } from '../asm-context.ts';
import { detectCertificateRisks, detectHostRisks, detectStorageRisks } from './detect-risks.ts';
import { detectContextFor, effectiveTypes } from './effective-types.ts';
import { assetKey, planEvaluation, type DetectedOnAsset, type EvaluationPlan } from './plan-evaluation.ts';
import type { CertDoc, HostDoc, StorageDoc } from './risk-model.ts';
import { strAt } from './service-view.ts';

/** Asset families detectors run on. */
export const EVALUATED_TYPES: readonly RiskAssetType[] = ['HOST', 'CERT', 'STORAGE_BUCKET'];

export interface EvaluationScope {
  readonly assets: readonly Asset[];
  readonly removed: readonly { readonly type: string; readonly assetId: string }[];
}

export type EvaluationCounts = EvaluationPlan['counts'];

const queues = new WeakMap<AsmContext, Map<string, Promise<unknown>>>();

/** Runs `fn` after every earlier evaluation of the workspace has finished (in this process). */
export function serialised<T>(ctx: AsmContext, workspaceId: string, fn: () => Promise<T>): Promise<T> {
  let byWorkspace = queues.get(ctx);
  if (!byWorkspace) queues.set(ctx, (byWorkspace = new Map()));
  const previous = byWorkspace.get(workspaceId) ?? Promise.resolve();
  const next = previous.then(fn, fn);
  const tail = next.catch(() => {});
  byWorkspace.set(workspaceId, tail);
  void tail.then(() => {
    if (byWorkspace.get(workspaceId) === tail) byWorkspace.delete(workspaceId);
  });
  return next;
}

function fingerprintsOf(host: HostDoc): string[] {
  const out: string[] = [];
  for (const s of Array.isArray(host.services) ? host.services : []) {
    if (!s || typeof s !== 'object') continue;
    const fp = typeof s.certificate === 'string' ? s.certificate : strAt(s, 'tls.certificates.leaf_fp_sha_256');
    if (fp) out.push(fp);
  }
  return out;
}

function storageDoc(asset: Asset): StorageDoc {
  const d = asset.data as Record<string, unknown>;
  const access = d.access !== null && typeof d.access === 'object' ? (d.access as StorageDoc['access']) : {};
  return {
    bucket: asset.assetId,
    ...(typeof d.provider === 'string' ? { provider: d.provider } : {}),
    ...(typeof d.region === 'string' ? { region: d.region } : {}),
    ...(typeof d.url === 'string' ? { url: d.url } : {}),
    access,
  };
}

function names(asset: Asset): string[] {
  const n = (asset.data as Record<string, unknown>).names;
  return Array.isArray(n) ? n.filter((x): x is string => typeof x === 'string' && x !== '') : [];
}

/** Evaluates the given assets now (callers serialise; see evaluateAssets). */
async function evaluateNow(ctx: AsmContext, workspaceId: string, scope: EvaluationScope): Promise<EvaluationCounts> {
  const store = ctx.store;
  const now = ctx.now();
  const at = now.toISOString();
  const assets = scope.assets.filter((a) => (EVALUATED_TYPES as readonly string[]).includes(a.type));
  const removed = scope.removed.filter((r) => (EVALUATED_TYPES as readonly string[]).includes(r.type));
  if (assets.length === 0 && removed.length === 0) return { opened: 0, reopened: 0, resolved: 0, updated: 0, unchanged: 0 };

  const types = effectiveTypes(await store.asmRisks.typeSettings(workspaceId));
  const hosts = assets.filter((a) => a.type === 'HOST');
  const certAssets = assets.filter((a) => a.type === 'CERT');

  // An IP host and the virtual hosts of the names discovery found for it.
  const hostIds = hosts.flatMap((h) => [h.assetId, ...names(h).map((n) => `${h.assetId}+${n}`)]);
  const hostDocs = hostIds.length ? await store.documents.getMany('hosts', hostIds) : [];
  const docsByIp = new Map<string, HostDoc[]>();
  for (const d of hostDocs) {
    const doc = d.doc as HostDoc;
    const ip = d.id.includes('+') ? d.id.slice(0, d.id.indexOf('+')) : d.id;
    const list = docsByIp.get(ip) ?? [];
    list.push(doc);
    docsByIp.set(ip, list);
  }
  const wanted = new Set<string>([...certAssets.map((c) => c.assetId), ...hostDocs.flatMap((d) => fingerprintsOf(d.doc as HostDoc))]);
  const certDocs = wanted.size ? await store.documents.getMany('certificates', [...wanted]) : [];
  const certs = new Map<string, CertDoc>(certDocs.map((d) => [d.id.toLowerCase(), d.doc as CertDoc]));
  const dctx = detectContextFor(types, now, (fp) => certs.get(fp.toLowerCase()));

  const detected: DetectedOnAsset[] = [];
  for (const h of hosts) {
    for (const doc of docsByIp.get(h.assetId) ?? []) {
      for (const risk of detectHostRisks(doc, dctx)) detected.push({ risk, assetType: 'HOST', assetId: h.assetId, cloud: h.cloud });
    }
  }
  for (const c of certAssets) {
    const doc = certs.get(c.assetId.toLowerCase());
    if (doc) for (const risk of detectCertificateRisks(doc, dctx)) detected.push({ risk, assetType: 'CERT', assetId: c.assetId, cloud: c.cloud });
  }
  for (const b of assets.filter((a) => a.type === 'STORAGE_BUCKET')) {
    for (const risk of detectStorageRisks(storageDoc(b), dctx)) detected.push({ risk, assetType: 'STORAGE_BUCKET', assetId: b.assetId, cloud: b.cloud });
  }

  const existing = [];
  for (const type of EVALUATED_TYPES) {
    const ids = [...new Set([...assets.filter((a) => a.type === type).map((a) => a.assetId), ...removed.filter((r) => r.type === type).map((r) => r.assetId)])];
    if (ids.length) existing.push(...(await store.asmRisks.listInstances(workspaceId, { assetType: type, assetIds: ids })));
  }

  const plan = planEvaluation({
    now: at,
    types,
    evaluated: new Set(assets.map((a) => assetKey(a.type, a.assetId))),
    removed: new Set(removed.map((r) => assetKey(r.type, r.assetId))),
    detected,
    existing,
  });
  if (plan.insert.length || plan.update.length || plan.touch.length || plan.events.length) {
    const { inserted } = await store.asmRisks.write(workspaceId, { insert: plan.insert, update: plan.update, touch: plan.touch }, plan.events, at);
    if (plan.logbook.length) {
      const ids = new Map([...existing, ...inserted].map((i) => [i.identity, i.id]));
      await store.asmLogbook.append(
        workspaceId,
        plan.logbook.map(({ riskIdentity, ...e }) => ({ ...e, data: { ...e.data, ...(ids.has(riskIdentity) ? { riskId: ids.get(riskIdentity) } : {}) } })),
      );
    }
  }
  return plan.counts;
}

/** Evaluates the assets in `scope` (and resolves the open risks of removed ones). */
export function evaluateAssets(ctx: AsmContext, workspaceId: string, scope: EvaluationScope): Promise<EvaluationCounts> {
  return serialised(ctx, workspaceId, () => evaluateNow(ctx, workspaceId, scope));
}

const PAGE = 500;

/**
 * Evaluates every asset of the workspace, and resolves open risks of assets it no longer has
 * (after a type is re-enabled or its severity or config changes).
 */
export function evaluateWorkspace(ctx: AsmContext, workspaceId: string): Promise<EvaluationCounts> {
  return serialised(ctx, workspaceId, async () => {
    const assets: Asset[] = [];
    for (const type of EVALUATED_TYPES) {
      const ids = await ctx.store.asmAssets.ids(workspaceId, type);
      for (let i = 0; i < ids.length; i += PAGE) assets.push(...(await ctx.store.asmAssets.getMany(workspaceId, type, ids.slice(i, i + PAGE))));
    }
    const present = new Set(assets.map((a) => assetKey(a.type, a.assetId)));
    const gone = new Map<string, { type: string; assetId: string }>();
    for (const i of await ctx.store.asmRisks.listInstances(workspaceId, { status: 'open' })) {
      const k = assetKey(i.assetType, i.assetId);
      if (!present.has(k)) gone.set(k, { type: i.assetType, assetId: i.assetId });
    }
    return evaluateNow(ctx, workspaceId, { assets, removed: [...gone.values()] });
  });
}
