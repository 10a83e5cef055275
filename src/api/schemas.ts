/** Request schemas shared by several routes (TypeBox; also the source of the OpenAPI document). */
import { Type } from '@sinclair/typebox';

export const StringOrList = Type.Union([Type.String(), Type.Array(Type.String())]);
export const VirtualHosts = Type.Union([Type.Literal('EXCLUDE'), Type.Literal('INCLUDE'), Type.Literal('ONLY')], {
  description: 'Whether virtual hosts (id `ip+name`) are excluded (default), included, or the only results',
});

export const SearchQuery = Type.Object({
  q: Type.Optional(Type.String({ description: 'Query in the Censys Search Language; empty matches everything' })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Hits per page (default 50)' })),
  cursor: Type.Optional(Type.String({ description: 'links.next or links.prev of a previous page' })),
  virtual_hosts: Type.Optional(VirtualHosts),
  fields: Type.Optional(Type.Array(Type.String(), { description: 'Fields to return (repeated or comma-separated)' })),
  sort: Type.Optional(Type.Array(Type.String(), { description: 'RELEVANCE | ASCENDING | DESCENDING, or fields (`-field` descending)' })),
});

export const SearchBody = Type.Object(
  {
    q: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    per_page: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 100 }), Type.Null()])),
    cursor: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    virtual_hosts: Type.Optional(Type.Union([VirtualHosts, Type.Null()])),
    fields: Type.Optional(Type.Union([StringOrList, Type.Null()])),
    sort: Type.Optional(Type.Union([StringOrList, Type.Null()])),
  },
  { additionalProperties: true },
);

export const AggregateQuery = Type.Object({
  q: Type.Optional(Type.String()),
  field: Type.String({ description: 'Field to aggregate on' }),
  num_buckets: Type.Optional(Type.Integer({ minimum: 1, description: 'Buckets to return, 1-1000 (default 50)' })),
  virtual_hosts: Type.Optional(VirtualHosts),
});

export const CommentBody = Type.Object({ contents: Type.String({ minLength: 1 }) }, { additionalProperties: true });

export const TagBody = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    metadata: Type.Optional(Type.Union([Type.Object({ color: Type.Optional(Type.Union([Type.String(), Type.Null()])) }, { additionalProperties: true }), Type.Null()])),
  },
  { additionalProperties: true },
);

export const IdParam = Type.Object({ id: Type.String() });
