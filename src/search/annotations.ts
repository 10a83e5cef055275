/**
 * Comments and tags on hosts and certificates. Both belong to the caller's workspace: another
 * workspace's comments and tags are simply not found.
 */
import type { IndexName } from '../model/field-def.ts';
import type { Result } from '../lib/problem.ts';
import { fail, ok } from '../lib/problem.ts';
import type { Comment, Tag } from '../store/store.ts';
import type { SearchContext } from './search-context.ts';
import { parseFingerprint, parseHostId } from './document-ids.ts';

export interface Caller {
  readonly userId: string;
  readonly workspaceId: string;
}

export const MAX_COMMENT_LENGTH = 10_000;
export const MAX_TAG_NAME_LENGTH = 100;

/** The canonical id of an existing document (comments and tags attach only to known documents). */
export async function existingDocId(ctx: SearchContext, index: IndexName, raw: string): Promise<Result<string>> {
  const id = index === 'hosts' ? parseHostId(raw) : parseFingerprint(raw);
  if (!id.ok) return id;
  const docId = typeof id.value === 'string' ? id.value : id.value.id;
  const doc = await ctx.store.documents.get(index, docId);
  return doc ? ok(docId) : fail('not_found', `${index === 'hosts' ? 'Host' : 'Certificate'} ${docId} not found`);
}

export function presentComment(c: Comment): Record<string, unknown> {
  return {
    id: c.id,
    [c.index === 'hosts' ? 'ip' : 'fingerprint']: c.docId,
    author_id: c.authorId,
    contents: c.contents,
    created_at: c.createdAt,
    ...(c.updatedAt !== c.createdAt ? { updated_at: c.updatedAt } : {}),
  };
}

function checkContents(contents: unknown): Result<string> {
  if (typeof contents !== 'string' || contents.trim() === '') return fail('invalid_request', "'contents' must be a non-empty string");
  if (contents.length > MAX_COMMENT_LENGTH) return fail('invalid_request', `'contents' is limited to ${MAX_COMMENT_LENGTH} characters`);
  return ok(contents);
}

export async function listComments(ctx: SearchContext, caller: Caller, index: IndexName, raw: string): Promise<Result<{ docId: string; comments: Comment[] }>> {
  const id = await existingDocId(ctx, index, raw);
  if (!id.ok) return id;
  return ok({ docId: id.value, comments: await ctx.store.comments.list(caller.workspaceId, index, id.value) });
}

export async function getComment(ctx: SearchContext, caller: Caller, index: IndexName, raw: string, commentId: string): Promise<Result<Comment>> {
  const id = await existingDocId(ctx, index, raw);
  if (!id.ok) return id;
  const c = await ctx.store.comments.get(caller.workspaceId, index, id.value, commentId);
  return c ? ok(c) : fail('not_found', `Comment ${commentId} not found`);
}

export async function addComment(ctx: SearchContext, caller: Caller, index: IndexName, raw: string, contents: unknown): Promise<Result<Comment>> {
  const id = await existingDocId(ctx, index, raw);
  if (!id.ok) return id;
  const text = checkContents(contents);
  if (!text.ok) return text;
  return ok(await ctx.store.comments.add(caller.workspaceId, index, id.value, caller.userId, text.value));
}

export async function updateComment(ctx: SearchContext, caller: Caller, index: IndexName, raw: string, commentId: string, contents: unknown): Promise<Result<Comment>> {
  const id = await existingDocId(ctx, index, raw);
  if (!id.ok) return id;
  const text = checkContents(contents);
  if (!text.ok) return text;
  const c = await ctx.store.comments.update(caller.workspaceId, index, id.value, commentId, text.value);
  return c ? ok(c) : fail('not_found', `Comment ${commentId} not found`);
}

/** Deletes a comment and answers the document's remaining comments. */
export async function deleteComment(ctx: SearchContext, caller: Caller, index: IndexName, raw: string, commentId: string): Promise<Result<{ docId: string; comments: Comment[] }>> {
  const id = await existingDocId(ctx, index, raw);
  if (!id.ok) return id;
  const removed = await ctx.store.comments.remove(caller.workspaceId, index, id.value, commentId);
  if (!removed) return fail('not_found', `Comment ${commentId} not found`);
  return ok({ docId: id.value, comments: await ctx.store.comments.list(caller.workspaceId, index, id.value) });
}

export function presentTag(t: Tag): Record<string, unknown> {
  return { id: t.id, name: t.name, metadata: t.color ? { color: t.color } : {}, created_at: t.createdAt, updated_at: t.updatedAt };
}

function checkTagBody(body: unknown): Result<{ name: string; color: string | null }> {
  const b = (body ?? {}) as { name?: unknown; metadata?: unknown };
  if (typeof b.name !== 'string' || b.name.trim() === '') return fail('invalid_request', "'name' must be a non-empty string");
  if (b.name !== b.name.trim()) return fail('invalid_request', "'name' must not have leading or trailing whitespace");
  if (b.name.length > MAX_TAG_NAME_LENGTH) return fail('invalid_request', `'name' is limited to ${MAX_TAG_NAME_LENGTH} characters`);
  let color: string | null = null;
  if (b.metadata !== undefined && b.metadata !== null) {
    if (typeof b.metadata !== 'object' || Array.isArray(b.metadata)) return fail('invalid_request', "'metadata' must be an object");
    const c = (b.metadata as { color?: unknown }).color;
    if (c !== undefined && c !== null) {
      if (typeof c !== 'string' || c.length > 32) return fail('invalid_request', "'metadata.color' must be a string of at most 32 characters");
      color = c;
    }
  }
  return ok({ name: b.name, color });
}

export async function createTag(ctx: SearchContext, caller: Caller, body: unknown): Promise<Result<Tag>> {
  const t = checkTagBody(body);
  if (!t.ok) return t;
  const tag = await ctx.store.tags.create(caller.workspaceId, t.value.name, t.value.color);
  return tag ? ok(tag) : fail('conflict', `A tag named '${t.value.name}' already exists`);
}

export async function getTag(ctx: SearchContext, caller: Caller, tagId: string): Promise<Result<Tag>> {
  const tag = await ctx.store.tags.get(caller.workspaceId, tagId);
  return tag ? ok(tag) : fail('not_found', `Tag ${tagId} not found`);
}

export async function updateTag(ctx: SearchContext, caller: Caller, tagId: string, body: unknown): Promise<Result<Tag>> {
  const t = checkTagBody(body);
  if (!t.ok) return t;
  const existing = await ctx.store.tags.get(caller.workspaceId, tagId);
  if (!existing) return fail('not_found', `Tag ${tagId} not found`);
  const clash = await ctx.store.tags.byName(caller.workspaceId, t.value.name);
  if (clash && clash.id !== existing.id) return fail('conflict', `A tag named '${t.value.name}' already exists`);
  const tag = await ctx.store.tags.update(caller.workspaceId, tagId, t.value.name, t.value.color);
  return tag ? ok(tag) : fail('not_found', `Tag ${tagId} not found`);
}

export async function deleteTag(ctx: SearchContext, caller: Caller, tagId: string): Promise<Result<true>> {
  return (await ctx.store.tags.remove(caller.workspaceId, tagId)) ? ok(true) : fail('not_found', `Tag ${tagId} not found`);
}

export async function tagDocument(ctx: SearchContext, caller: Caller, index: IndexName, raw: string, tagId: string, on: boolean): Promise<Result<true>> {
  const id = await existingDocId(ctx, index, raw);
  if (!id.ok) return id;
  const tag = await ctx.store.tags.get(caller.workspaceId, tagId);
  if (!tag) return fail('not_found', `Tag ${tagId} not found`);
  if (on) await ctx.store.tags.assign(caller.workspaceId, tag.id, index, id.value);
  else await ctx.store.tags.unassign(caller.workspaceId, tag.id, index, id.value);
  return ok(true);
}

export async function documentsWithTag(ctx: SearchContext, caller: Caller, tagId: string, index: IndexName): Promise<Result<{ docId: string; taggedAt: string }[]>> {
  const tag = await ctx.store.tags.get(caller.workspaceId, tagId);
  if (!tag) return fail('not_found', `Tag ${tagId} not found`);
  return ok(await ctx.store.tags.documents(caller.workspaceId, tag.id, index));
}

export async function tagsOfDocument(ctx: SearchContext, caller: Caller, index: IndexName, raw: string): Promise<Result<{ docId: string; tags: Tag[] }>> {
  const id = await existingDocId(ctx, index, raw);
  if (!id.ok) return id;
  return ok({ docId: id.value, tags: await ctx.store.tags.tagsOf(caller.workspaceId, index, id.value) });
}
