/**
 * Page-number paging of ASM lists (contract §1.11): the client starts at page 1, sends pageSize
 * (default 500), and stops once the echoed pageNumber reaches totalPages. An empty list is page 1
 * of 0, never an error; asking beyond the last page is 10051.
 */
import { fail, ok, type Result } from '../../lib/problem.ts';
import type { AssetPage } from '../../store/store.ts';

export const DEFAULT_PAGE_SIZE = 500;
export const MAX_PAGE_SIZE = 1000;

export interface PageRequest {
  readonly pageNumber: number;
  readonly pageSize: number;
}

export interface PageInfo {
  readonly pageNumber: number;
  readonly pageSize: number;
  readonly totalPages: number;
  readonly totalItems: number;
}

function integer(raw: string | number): number | undefined {
  const text = String(raw).trim();
  // `2.0` is what a client that computed the number as a float sends.
  if (!/^[+-]?\d{1,15}(\.0+)?$/.test(text)) return undefined;
  return Number(text);
}

export function parsePage(rawNumber: string | number | undefined, rawSize: string | number | undefined): Result<PageRequest> {
  let pageSize = DEFAULT_PAGE_SIZE;
  if (rawSize !== undefined && rawSize !== '') {
    const n = integer(rawSize);
    if (n === undefined || n < 1 || n > MAX_PAGE_SIZE) {
      return fail('invalid_request', `pageSize must be an integer from 1 to ${MAX_PAGE_SIZE}, not ${JSON.stringify(rawSize)}.`, { asmCode: 10050 });
    }
    pageSize = n;
  }
  let pageNumber = 1;
  if (rawNumber !== undefined && rawNumber !== '') {
    const n = integer(rawNumber);
    if (n === undefined) return fail('invalid_request', `pageNumber must be an integer, not ${JSON.stringify(rawNumber)}.`);
    if (n < 1) return fail('invalid_request', `pageNumber starts at 1, not ${n}.`, { asmCode: 10051 });
    pageNumber = n;
  }
  return ok({ pageNumber, pageSize });
}

export function pageWindow(req: PageRequest): AssetPage {
  return { offset: (req.pageNumber - 1) * req.pageSize, limit: req.pageSize };
}

/** The page's header once the total is known; a page past the last (other than page 1) is 10051. */
export function pageInfo(req: PageRequest, totalItems: number): Result<PageInfo> {
  const totalPages = Math.ceil(totalItems / req.pageSize);
  if (req.pageNumber > 1 && req.pageNumber > totalPages) {
    return fail('invalid_request', `Page ${req.pageNumber} is beyond the last page (${totalPages}) at pageSize ${req.pageSize}.`, { asmCode: 10051 });
  }
  return ok({ pageNumber: req.pageNumber, pageSize: req.pageSize, totalPages, totalItems });
}
