/** Calls the ASM API the way censys-python does: Censys-Api-Key and Content-Type: application/json on every request. */
import type { TestServer } from '../support/test-server.ts';

export interface AsmCallOptions {
  body?: unknown;
  /** Raw body text (sent as is). */
  raw?: string;
  /** The key to send; null sends none. Defaults to the admin's. */
  key?: string | null;
  headers?: Record<string, string>;
}

export interface AsmResponse {
  status: number;
  json: any;
  body: string;
  headers: Record<string, unknown>;
}

export function asmCaller(server: () => TestServer) {
  return async function asm(method: string, url: string, opts: AsmCallOptions = {}): Promise<AsmResponse> {
    const s = server();
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(opts.headers ?? {}) };
    if (opts.key !== null) headers['censys-api-key'] = opts.key ?? s.admin.asmKey;
    const payload = opts.body !== undefined ? JSON.stringify(opts.body) : opts.raw;
    const res = await s.app.inject({ method: method as 'GET', url, headers, ...(payload !== undefined ? { payload } : {}) });
    let json: any;
    try {
      json = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, json, body: res.body, headers: res.headers };
  };
}

/** An ASM error body: exactly message, errorCode, details. */
export function isAsmError(json: unknown): json is { message: string; errorCode: number; details: unknown } {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return false;
  const keys = Object.keys(json).sort();
  return keys.join(',') === 'details,errorCode,message';
}
