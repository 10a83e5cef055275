/**
 * Times inventory requests on a workspace of N host assets (docs/BENCHMARK.md, "ASM inventory"):
 * `npx tsx test/bench/asm-inventory-bench.ts 5000`. Not part of `npm test`.
 */
import { startTestServer } from '../support/test-server.ts';

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 5000);
  const s = await startTestServer({ hosts: n, certificates: 200 });
  const W = s.admin.user.workspaceId;
  const ids: string[] = [];
  for await (const b of s.rt.store.documents.scan('hosts', 1000)) for (const d of b) if (!d.id.includes('+')) ids.push(d.id);
  const AT = '2025-01-01T00:00:00.000Z';
  for (let i = 0; i < ids.length; i += 1000) {
    const upsert = ids.slice(i, i + 1000).map((ip) => ({
      workspaceId: W,
      type: 'HOST' as const,
      assetId: ip,
      isSeed: false,
      source: 'CENSYS_SCAN',
      associatedAt: AT,
      updatedAt: AT,
      trail: [],
      cloud: null,
      data: {},
    }));
    await s.rt.store.asmAssets.apply(W, { upsert, remove: [] }, []);
  }
  const headers = { 'censys-api-key': s.admin.asmKey, 'content-type': 'application/json' };
  const call = async (method: 'GET' | 'POST', url: string, body?: unknown): Promise<any> => {
    const r = await s.app.inject({ method, url, headers, ...(body ? { payload: JSON.stringify(body) } : {}) });
    if (r.statusCode !== 200) throw new Error(r.body);
    return JSON.parse(r.body);
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const cpuMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const cases: [string, () => Promise<unknown>][] = [
    ['search, first page of 50', () => call('GET', '/api/inventory/v1?pageSize=50')],
    ['search host.services.port: 22', () => call('GET', `/api/inventory/v1?pageSize=50&query=${encodeURIComponent('host.services.port: 22')}`)],
    ['search bare term nginx', () => call('GET', '/api/inventory/v1?pageSize=50&query=nginx')],
    [
      'aggregate nested service_name',
      () => call('POST', '/api/inventory/v1/aggregate', { aggregation: { nested: { path: 'host.services', aggregation: { term: { field: 'host.services.service_name' } } } } }),
    ],
    [
      'every page, pageSize 100',
      async () => {
        let cursor = '';
        for (;;) {
          const j = await call('GET', `/api/inventory/v1?pageSize=100${cursor ? `&cursor=${cursor}` : ''}`);
          if (!j.nextCursor) break;
          cursor = j.nextCursor;
        }
      },
    ],
  ];
  for (const [name, fn] of cases) {
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < 3; i++) {
      const c = cpuMs();
      const t = performance.now();
      await fn();
      wall.push(performance.now() - t);
      cpu.push(cpuMs() - c);
    }
    console.log(`${ids.length} host assets, ${name}: median wall ${median(wall).toFixed(0)} ms, CPU ${median(cpu).toFixed(0)} ms`);
  }
  await s.close();
}

await main();
