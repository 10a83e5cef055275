/**
 * Warms the search engine's derived query structures in the background once the server is ready
 * (SearchEngine.warm), so the first banner phrase, CIDR or bare term after a restart does not
 * build them while every other request waits; stops when the server closes. It runs alongside
 * the rendering of search hits (render-ahead.ts): both yield to the event loop between slices,
 * and neither needs the other's work, so they interleave instead of queueing.
 */
import type { FastifyInstance } from 'fastify';
import type { SearchEngine } from '../../engine/search-engine.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Settles when the engine warm-up started at ready has finished (or stopped). */
    engineWarming(): Promise<void>;
  }
}

export function registerEngineWarmer(app: FastifyInstance, engine: SearchEngine): void {
  const stop = new AbortController();
  let running: Promise<void> | undefined;
  app.decorate('engineWarming', () => running ?? Promise.resolve());
  app.addHook('onReady', async () => {
    if (!engine.warm) return;
    const started = performance.now();
    running = engine.warm(stop.signal).then(
      () => {
        if (!stop.signal.aborted) app.log.info({ ms: Math.round(performance.now() - started) }, 'search engine warmed');
      },
      (err: unknown) => {
        if (!stop.signal.aborted) app.log.warn({ err }, 'warming the search engine failed; queries build what they need on first use');
      },
    );
  });
  app.addHook('onClose', async () => {
    stop.abort();
    await running;
  });
}
