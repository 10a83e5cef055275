/**
 * Seeds use cases (contract §2B.2): what a workspace says it owns. Input is checked as a whole
 * before anything is written — one bad seed rejects the request — and every change is announced
 * on `seedsChanged` once it is saved.
 */
import { fail, ok, type Result } from '../lib/problem.ts';
import type { NewSeed, Seed, SeedType } from '../store/store.ts';
import type { AsmContext } from './asm-context.ts';
import { checkSeedValue, cidrSizeBits, isSeedType, SEED_TYPES } from './seed-value.ts';
import { isReservedSeed } from './reserved-seeds.ts';

/** A seed value as the wire shows it: ASNs are numbers. */
export type SeedWireValue = string | number;

export function wireValue(type: SeedType, value: string): SeedWireValue {
  return type === 'ASN' ? Number(value) : value;
}

/** Blocks larger than this many address bits are refused without `force` (IPv4 /8, IPv6 /32). */
const MAX_BLOCK_BITS: Readonly<Record<'v4' | 'v6', number>> = { v4: 24, v6: 96 };

export interface AddSeedsResult {
  readonly added: Seed[];
  readonly skippedReserved: SeedWireValue[];
}

export interface ReplaceSeedsResult extends AddSeedsResult {
  readonly removed: Seed[];
}

export interface SeedFilterInput {
  readonly type?: string;
  readonly label?: string;
}

function seedNotFound(rawId: string): Result<never> {
  const id: string | number = /^[0-9]{1,15}$/.test(rawId) ? Number(rawId) : rawId;
  return fail('not_found', `No seed with id ${rawId} in this workspace.`, { asmCode: 10014, details: [{ id }] });
}

function parseSeedId(rawId: string): number | undefined {
  return /^[0-9]{1,15}$/.test(rawId) ? Number(rawId) : undefined;
}

/** Checks every input seed; `labelOverride` replaces their labels (replace by label). */
function checkSeeds(input: readonly unknown[], labelOverride?: string): Result<NewSeed[]> {
  const typeErrors: string[] = [];
  const valueErrors: string[] = [];
  const seeds: NewSeed[] = [];
  input.forEach((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      valueErrors.push(`seeds[${i}]: a seed must be an object with type and value`);
      return;
    }
    const { type, value, label } = item as Record<string, unknown>;
    if (!isSeedType(type)) {
      typeErrors.push(`seeds[${i}]: ${JSON.stringify(type ?? null)} is not one of ${SEED_TYPES.join(', ')}`);
      return;
    }
    const checked = checkSeedValue(type, value);
    if (!checked.ok) {
      valueErrors.push(`seeds[${i}]: ${JSON.stringify(value ?? null)} is not a valid ${type}: ${checked.reason}`);
      return;
    }
    if (labelOverride === undefined && label !== undefined && label !== null && typeof label !== 'string') {
      valueErrors.push(`seeds[${i}]: label must be a string`);
      return;
    }
    seeds.push({ type, value: checked.value, label: labelOverride ?? ((label as string | null | undefined) ?? '') });
  });
  if (typeErrors.length > 0) return fail('invalid_request', typeErrors.join('; '), { asmCode: 10038 });
  if (valueErrors.length > 0) {
    return fail('invalid_request', valueErrors.join('; '), { asmCode: 10007, details: { errors: valueErrors } });
  }
  return ok(seeds);
}

function tooLarge(seeds: readonly NewSeed[]): Result<never> | undefined {
  const big = seeds.filter((s) => s.type === 'CIDR' && cidrSizeBits(s.value) > MAX_BLOCK_BITS[s.value.includes(':') ? 'v6' : 'v4']);
  if (big.length === 0) return undefined;
  const message = `${big.map((s) => s.value).join(', ')} ${big.length === 1 ? 'is' : 'are'} larger than /8 (IPv4) or /32 (IPv6); add with force=True to accept.`;
  return fail('invalid_request', message, { asmCode: 10016 });
}

function splitReserved(seeds: readonly NewSeed[], force: boolean): { keep: NewSeed[]; reserved: NewSeed[] } {
  if (force) return { keep: [...seeds], reserved: [] };
  const keep: NewSeed[] = [];
  const reserved: NewSeed[] = [];
  for (const s of seeds) (isReservedSeed(s.type, s.value) ? reserved : keep).push(s);
  return { keep, reserved };
}

const sameSeed = (a: { type: string; value: string }, b: { type: string; value: string }) => a.type === b.type && a.value === b.value;

export async function listSeeds(ctx: AsmContext, workspaceId: string, filter: SeedFilterInput): Promise<Result<Seed[]>> {
  if (filter.type && !isSeedType(filter.type)) {
    return fail('invalid_request', `Seed type must be one of ${SEED_TYPES.join(', ')}.`, { asmCode: 10038 });
  }
  return ok(
    await ctx.store.seeds.list(workspaceId, {
      ...(filter.type ? { type: filter.type } : {}),
      ...(filter.label ? { label: filter.label } : {}),
    }),
  );
}

export async function getSeed(ctx: AsmContext, workspaceId: string, rawId: string): Promise<Result<Seed>> {
  const id = parseSeedId(rawId);
  const seed = id === undefined ? undefined : await ctx.store.seeds.get(workspaceId, id);
  return seed ? ok(seed) : seedNotFound(rawId);
}

export async function addSeeds(ctx: AsmContext, workspaceId: string, input: readonly unknown[], force: boolean): Promise<Result<AddSeedsResult>> {
  const checked = checkSeeds(input);
  if (!checked.ok) return checked;
  if (!force) {
    const refused = tooLarge(checked.value);
    if (refused) return refused;
  }
  const { keep, reserved } = splitReserved(checked.value, force);
  const added = await ctx.store.seeds.add(workspaceId, keep, 'API', ctx.now().toISOString());
  await ctx.seedsChanged.emit({ workspaceId, added, removed: [] }, ctx.reportError);
  return ok({ added, skippedReserved: unique(reserved).map((s) => wireValue(s.type, s.value)) });
}

export async function replaceSeedsByLabel(
  ctx: AsmContext,
  workspaceId: string,
  label: string,
  input: readonly unknown[],
  force: boolean,
): Promise<Result<ReplaceSeedsResult>> {
  const checked = checkSeeds(input, label);
  if (!checked.ok) return checked;
  if (!force) {
    const refused = tooLarge(checked.value);
    if (refused) return refused;
  }
  const { keep, reserved } = splitReserved(checked.value, force);
  // A reserved seed the label already holds (added with force earlier) is asked for again: keep it.
  const current = reserved.length > 0 ? await ctx.store.seeds.list(workspaceId, { label }) : [];
  const held = reserved.filter((r) => current.some((c) => sameSeed(c, r)));
  const skipped = reserved.filter((r) => !held.includes(r));
  const { added, removed } = await ctx.store.seeds.replaceLabel(workspaceId, label, [...keep, ...held], 'API', ctx.now().toISOString());
  await ctx.seedsChanged.emit({ workspaceId, added, removed }, ctx.reportError);
  return ok({ added, removed, skippedReserved: unique(skipped).map((s) => wireValue(s.type, s.value)) });
}

export async function deleteSeedsByLabel(ctx: AsmContext, workspaceId: string, label: string): Promise<Result<Seed[]>> {
  const removed = await ctx.store.seeds.removeByLabel(workspaceId, label);
  await ctx.seedsChanged.emit({ workspaceId, added: [], removed }, ctx.reportError);
  return ok(removed);
}

export async function deleteSeed(ctx: AsmContext, workspaceId: string, rawId: string): Promise<Result<Seed>> {
  const id = parseSeedId(rawId);
  const removed = id === undefined ? undefined : await ctx.store.seeds.remove(workspaceId, id);
  if (!removed) return seedNotFound(rawId);
  await ctx.seedsChanged.emit({ workspaceId, added: [], removed: [removed] }, ctx.reportError);
  return ok(removed);
}

function unique(seeds: readonly NewSeed[]): NewSeed[] {
  const seen = new Set<string>();
  return seeds.filter((s) => {
    const key = `${s.type}\u0000${s.value}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
