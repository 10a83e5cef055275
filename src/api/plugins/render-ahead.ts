/**
 * Renders missing or stale search hits (search/page-hits.ts) in the background once the server
 * is ready, so that first pages do not pay for rendering; stops, and saves what is queued, when
 * the server closes. Hits of documents written later are rendered when first served. The pass
 * reads every document's hash (about 10 ms of CPU per 1,000 documents here when nothing is stale) and
 * pauses between windows of 500, so it takes a bounded share of the CPU from requests.
 */
import type { FastifyInstance } from 'fastify';
import type { Store } from '../../store/store.ts';
import { flushSavedHits, renderAhead } from '../../search/page-hits.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Settles when the background rendering started at ready has finished (or stopped). */
    renderingAhead(): Promise<void>;
  }
}

export function registerRenderAhead(app: FastifyInstance, store: Store): void {
  const stop = new AbortController();
  let running: Promise<void> | undefined;
  app.decorate('renderingAhead', () => running ?? Promise.resolve());
  app.addHook('onReady', async () => {
    running = (async () => {
      for (const index of ['certificates', 'hosts'] as const) await renderAhead(store, index, { signal: stop.signal, pauseMs: 10 });
    })().catch((err: unknown) => {
      if (!stop.signal.aborted) app.log.warn({ err }, 'rendering search hits ahead failed; they are rendered when first served');
    });
  });
  app.addHook('onClose', async () => {
    stop.abort();
    await running;
    await flushSavedHits(store);
  });
}
