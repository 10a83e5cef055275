import type { Config } from '../main/config.ts';
import { openRuntime, describeDatabase } from '../main/runtime.ts';
import { ensureAdmin } from '../main/admin-account.ts';
import { loadDemo } from '../main/load-demo.ts';
import { buildApp } from '../api/app.ts';
import { startProgress } from './progress.ts';
import { VERSION } from '../main/version.ts';

/**
 * Starts the service: store, admin account, demo data on first start, engine, HTTP.
 * `onServing` gets the stop function before the banner is printed: whoever reads the banner as
 * the sign that the server is up may signal it at once, so its handlers must be in place first.
 */
export async function serveCommand(config: Config, env: NodeJS.ProcessEnv, onServing: (stop: () => Promise<void>) => void): Promise<void> {
  const out = process.stderr;
  const rt = await openRuntime(config);
  const admin = await ensureAdmin(rt.store, config.dataDir, env);
  const demoDone = await rt.store.settings.get('demo.loaded');
  const empty = (await rt.store.documents.count('hosts')) === 0 && (await rt.store.documents.count('certificates')) === 0;
  // The engine opens its segments (or loads the store) first, so that a demo loaded next is
  // journaled and saved like any other write and the next start opens it instead of re-indexing.
  const hosts = await rt.store.documents.count('hosts');
  const certs = await rt.store.documents.count('certificates');
  // The bar appears only when documents are read (a full load or a long replay); opening segments is quick.
  let progress: ReturnType<typeof startProgress> | undefined;
  let offset = 0;
  let lastIndex = '';
  const report = await rt.indexer.rebuild((index, done) => {
    if (index !== lastIndex) {
      offset = lastIndex === '' ? 0 : certs;
      lastIndex = index;
    }
    progress ??= startProgress('indexing', hosts + certs);
    progress.update(offset + done);
  });
  progress?.stop();
  if (hosts + certs > 0) {
    const how = report.mode === 'segments' ? `opened saved segments, re-read ${report.replayed} changed documents` : `read from the store${report.reason ? ` (${report.reason})` : ''}`;
    out.write(`search index: ${report.documents} documents, ${how}, in ${(report.ms / 1000).toFixed(1)} s\n`);
  }
  if (config.demo.enabled && !demoDone && empty) {
    out.write(`First start: loading the demo dataset (${config.demo.hosts} hosts, ${config.demo.certificates} certificates; --no-demo to start empty)\n`);
    const counts = await loadDemo(rt.indexer, { hosts: config.demo.hosts, certificates: config.demo.certificates });
    await rt.store.settings.set('demo.loaded', JSON.stringify({ ...counts, at: new Date().toISOString() }));
    rt.engine.persistence?.checkpoint();
  }
  const app = await buildApp({
    ctx: rt.ctx,
    auth: rt.auth,
    rateLimit: config.rateLimit,
    bodyLimit: config.bodyLimit,
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    version: VERSION,
    asm: rt.asm,
    indexer: rt.indexer,
  });
  // Discovery follows new data from here on; data the CLI ingested while we were down is caught up in the background.
  void rt.startDiscovery({ catchUp: true, log: (line) => out.write(line + '\n') });
  await app.listen({ host: config.host, port: config.port });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const hostPart = config.host.includes(':') ? `[${config.host}]` : config.host;
  const base = `http://${hostPart}:${port}/api`;
  const lines = [
    `Periscope ${VERSION} serving ${base}`,
    `  store:      ${describeDatabase(config)} — ${rt.engine.size('hosts')} hosts, ${rt.engine.size('certificates')} certificates`,
    `  API id:     ${admin.apiId}`,
    `  API secret: ${admin.apiSecret ?? '(not known here: set PERISCOPE_ADMIN_API_SECRET or run `periscope users rotate ' + admin.email + '`)'}`,
    `  ASM key:    ${admin.asmKey ?? '(not known here)'}`,
    `  API docs:   http://${hostPart}:${port}/api/docs`,
    `  Try:        curl -u '${admin.apiId}:${admin.apiSecret ?? 'SECRET'}' '${base}/v2/hosts/search?q=services.service_name:HTTP&per_page=5'`,
  ];
  const stop = async (): Promise<void> => {
    await app.close();
    await rt.close();
  };
  onServing(stop);
  process.stdout.write(lines.join('\n') + '\n');
}
