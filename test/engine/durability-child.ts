/**
 * Child process of durability.test.ts: opens the runtime on argv[2] as `serve` does (segments,
 * then the journaled tail), then writes deterministic batches through the Indexer — hosts, some
 * of them rewritten later, and now and then the certificates they present — printing `ack N`
 * once batch N was acknowledged. Checkpoints are frequent, so kills land inside them too.
 * argv[5], when given, is the engine's documents per part: small parts fill and are sealed
 * (checkpointed and reopened) while the batches are written, so kills land inside those too.
 */
import type { PutItem } from '../../src/search/indexer.ts';

export const BATCH = 150;

function fingerprint(k: number): string {
  return k.toString(16).padStart(64, 'c');
}

/** Batch n: hosts (every third batch rewrites earlier hosts), or certificates when n % 7 === 6. */
export function batchOf(n: number): { index: 'hosts' | 'certificates'; items: PutItem[] } {
  const observedAt = new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
  if (n % 7 === 6) {
    const items = [0, 1, 2].map((k) => {
      const id = fingerprint((n * 3 + k) % 12);
      return { id, observedAt, doc: { fingerprint_sha256: id, parsed: { subject_dn: `CN=host${n}-${k}.example.test`, issuer_dn: 'CN=Test CA' } } };
    });
    return { index: 'certificates', items };
  }
  const first = n % 3 === 2 ? (n * 37) % Math.max(1, n * BATCH) : n * BATCH;
  const items: PutItem[] = [];
  for (let i = 0; i < BATCH; i++) {
    const h = first + i;
    const ip = `10.${(h >> 16) & 255}.${(h >> 8) & 255}.${h & 255}`;
    const port = [22, 80, 443, 8080][(h + n) % 4];
    const service: Record<string, unknown> = {
      port,
      service_name: port === 22 ? 'SSH' : 'HTTP',
      transport_protocol: 'TCP',
      banner: `${port === 22 ? 'SSH-2.0-OpenSSH_8.9' : 'HTTP/1.1 200 OK\r\nServer: nginx'} rev ${n}`,
      ...(port === 443 ? { certificate: fingerprint(h % 12) } : {}),
    };
    items.push({ id: ip, observedAt, doc: { ip, location: { country: ['Germany', 'France', 'Japan'][h % 3] }, services: [service], labels: [`batch-${n}`] } });
  }
  return { index: 'hosts', items };
}

if (process.argv[2]) {
  const { DEFAULTS } = await import('../../src/main/config.ts');
  const { openRuntime } = await import('../../src/main/runtime.ts');
  const { Indexer } = await import('../../src/search/indexer.ts');
  const engine = process.argv[5] ? { partDocuments: Number(process.argv[5]) } : DEFAULTS.engine;
  const rt = await openRuntime({ ...DEFAULTS, dataDir: process.argv[2], logLevel: 'silent', engine });
  const indexer = new Indexer(rt.ctx, { checkpointIds: Number(process.argv[4] ?? 600) });
  const report = await indexer.rebuild();
  process.stdout.write(`opened ${report.mode}\n`);
  for (let n = Number(process.argv[3] ?? 0); ; n++) {
    const { index, items } = batchOf(n);
    await indexer.put(index, items);
    process.stdout.write(`ack ${n}\n`);
  }
}
