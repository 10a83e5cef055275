/**
 * Comments and tags on assets (contract §2B.3, §5.5). The asset must be one of the workspace's
 * (its family's not-found code otherwise); comments are paged like assets; tags are added by name
 * with an optional colour and removed by name.
 */
import { fail, ok, type Result } from '../../lib/problem.ts';
import type { AsmComment } from '../../store/store.ts';
import type { AsmContext } from '../asm-context.ts';
import type { AssetFamily } from './asset-families.ts';
import { pageInfo, pageWindow, parsePage } from './asset-page.ts';
import { resolveAsset, type AssetAddress } from './asset-queries.ts';
import { checkComment } from './comment-rules.ts';
import { checkCasing, checkTagInput, DEFAULT_TAG_COLOR } from './tag-rules.ts';

type Json = Record<string, unknown>;

/** A stored comment as the API shows it: the asset named by its family's key (`ipAddress`, `sha256`, ...). */
export function presentComment(family: AssetFamily, c: AsmComment): Json {
  return {
    type: family.commentType,
    [family.commentIdKey]: c.assetId,
    commentId: c.commentId,
    createdOn: c.createdOn,
    createdBy: c.createdBy,
    markdown: c.markdown,
  };
}

function parseCommentId(raw: string): Result<number> {
  const text = raw.trim();
  if (!/^\d{1,15}$/.test(text)) return fail('invalid_request', `Comment ids are positive integers, not ${JSON.stringify(raw)}.`);
  return ok(Number(text));
}

function commentNotFound(commentId: number, assetId: string): Result<never> {
  return fail('not_found', `No comment ${commentId} on ${assetId}.`, { asmCode: 10055 });
}

export async function listComments(
  ctx: AsmContext,
  workspaceId: string,
  address: AssetAddress,
  query: { readonly pageNumber?: string; readonly pageSize?: string },
): Promise<Result<Json>> {
  const page = parsePage(query.pageNumber, query.pageSize);
  if (!page.ok) return page;
  const asset = await resolveAsset(ctx, workspaceId, address);
  if (!asset.ok) return asset;
  const { items, total } = await ctx.store.asmAnnotations.listComments(workspaceId, asset.value.type, asset.value.assetId, pageWindow(page.value));
  const info = pageInfo(page.value, total);
  if (!info.ok) return info;
  return ok({ comments: items.map((c) => presentComment(address.family, c)), ...info.value });
}

export async function getComment(ctx: AsmContext, workspaceId: string, address: AssetAddress, rawCommentId: string): Promise<Result<Json>> {
  const id = parseCommentId(rawCommentId);
  if (!id.ok) return id;
  const asset = await resolveAsset(ctx, workspaceId, address);
  if (!asset.ok) return asset;
  const comment = await ctx.store.asmAnnotations.getComment(workspaceId, asset.value.type, asset.value.assetId, id.value);
  return comment ? ok(presentComment(address.family, comment)) : commentNotFound(id.value, asset.value.assetId);
}

export async function addComment(ctx: AsmContext, workspaceId: string, address: AssetAddress, body: unknown, author: string | null): Promise<Result<Json>> {
  const asset = await resolveAsset(ctx, workspaceId, address);
  if (!asset.ok) return asset;
  const markdown = checkComment(body);
  if (!markdown.ok) return markdown;
  const c = await ctx.store.asmAnnotations.addComment(workspaceId, asset.value.type, asset.value.assetId, markdown.value, author, ctx.now().toISOString());
  return ok({ commentId: c.commentId, markdown: c.markdown, createdOn: c.createdOn, createdBy: c.createdBy });
}

export async function deleteComment(ctx: AsmContext, workspaceId: string, address: AssetAddress, rawCommentId: string): Promise<Result<void>> {
  const id = parseCommentId(rawCommentId);
  if (!id.ok) return id;
  const asset = await resolveAsset(ctx, workspaceId, address);
  if (!asset.ok) return asset;
  const removed = await ctx.store.asmAnnotations.removeComment(workspaceId, asset.value.type, asset.value.assetId, id.value);
  return removed ? ok(undefined) : commentNotFound(id.value, asset.value.assetId);
}

export async function addTag(ctx: AsmContext, workspaceId: string, address: AssetAddress, body: unknown): Promise<Result<Json>> {
  const asset = await resolveAsset(ctx, workspaceId, address);
  if (!asset.ok) return asset;
  const input = checkTagInput(body);
  if (!input.ok) return input;
  const labels = (await ctx.store.asmAnnotations.listTags(workspaceId)).map((t) => t.label);
  const casing = checkCasing(input.value.name, labels);
  if (!casing.ok) return casing;
  const tag = await ctx.store.asmAnnotations.tagAsset(
    workspaceId,
    asset.value.type,
    asset.value.assetId,
    input.value.name,
    input.value.color,
    DEFAULT_TAG_COLOR,
    ctx.now().toISOString(),
  );
  return ok({ name: tag.label, color: tag.color });
}

/** Removing a tag the asset does not carry is not an error: the asset ends up without it either way. */
export async function deleteTag(ctx: AsmContext, workspaceId: string, address: AssetAddress, name: string): Promise<Result<void>> {
  const asset = await resolveAsset(ctx, workspaceId, address);
  if (!asset.ok) return asset;
  await ctx.store.asmAnnotations.untagAsset(workspaceId, asset.value.type, asset.value.assetId, name);
  return ok(undefined);
}
