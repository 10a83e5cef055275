/**
 * One field predicate over one scope, answered from the slot of its path: dictionary lookups
 * for equality, sorted typed groups for ranges (or a slice of the units in value order, see
 * RangeUnits), the token index for token and phrase matches, and for wildcards and regexes a
 * test of each dictionary term (a sorted range of terms when a case-sensitive wildcard has a
 * literal prefix, of values sorted from the end when it ends with a literal). Results may
 * include dead units.
 */
import type { FieldDef, FieldType } from '../../model/field-def.ts';
import type { Predicate } from '../../query/resolved.ts';
import { keyString, queryValue, rangeBound } from '../reference/typed-value.ts';
import { userRegExp, wildcardPrefix, wildcardRegExp } from '../reference/matchers.ts';
import { andConsuming, release, RoaringBitmap32, type Bitmap } from './bitmap.ts';
import { rangeUnits } from './range-units.ts';
import type { Scope } from './scope.ts';
import type { GrowableU32 } from './growable.ts';
import type { Slot } from './slot.ts';
import { SuffixView } from './suffix-view.ts';
import { substringCandidates, tokenCandidates, tokensWithPrefix } from './substring-candidates.ts';
import type { TypedView } from './typed-view.ts';
import { ValueUnits } from './value-units.ts';

/** Groups in a range from which slicing RangeUnits beats one posting lookup per group. */
const SLICE_FROM = 64;

function empty(): Bitmap {
  return new RoaringBitmap32();
}

/** Positions [start, end) in view.sortedGroups() of keys starting with `prefix` (string views). */
function groupsOrds(view: TypedView, from: number, to: number): number[] {
  const sorted = view.sortedGroups();
  const ords: number[] = [];
  for (let p = from; p < to; p++) view.pushOrds(sorted[p], ords);
  return ords;
}

/** Value ordinals of `slot` whose values hold all `tokens` (consecutively, in order, when `phrase`). */
export function tokenValues(slot: Slot, tokens: readonly string[], phrase: boolean): Bitmap {
  const ti = slot.tokens(phrase && tokens.length > 1);
  if (phrase) return ti.phraseValues(slot.values, tokens);
  let acc: Bitmap | undefined;
  for (const tok of tokens) {
    const t = ti.tokens.get(tok);
    if (t < 0) return empty();
    const vals = ti.values.bitmap(t);
    acc = acc ? andConsuming(acc, vals) : vals;
    if (acc.isEmpty) return acc;
  }
  return acc ?? empty();
}

/**
 * Documents (live or not) with a unit of text slot `slot` whose value holds `tokens` (at least
 * one), where `elemDoc` maps the slot's units to documents and `unitDocs` a bitmap of units.
 */
export function tokenDocs(slot: Slot, tokens: readonly string[], phrase: boolean, elemDoc: GrowableU32, unitDocs: (units: Bitmap) => Bitmap): Bitmap {
  const values = tokenValues(slot, tokens, phrase);
  if (values.isEmpty) return values;
  const docs = ValueUnits.docsOf(slot, values.toUint32Array(), elemDoc, unitDocs);
  release(values);
  return docs;
}

/**
 * Value ordinals matching `re`; `prefix` (case-sensitive) and `suffix` (any case) are literals
 * every match starts / ends with, or '' (narrowing the values to test for textual fields).
 */
function patternOrds(slot: Slot, field: FieldDef, re: RegExp, prefix: string, suffix: string, pattern?: string): number[] {
  const type = field.type;
  if (type !== 'text' && type !== 'keyword') {
    const view = slot.view(type);
    const ords: number[] = [];
    for (let g = 0; g < view.groups; g++) {
      if (re.test(keyString(type, view.key(g)))) view.pushOrds(g, ords);
    }
    return ords;
  }
  const found = new Set<number>();
  const values = slot.values;
  let candidates: Uint32Array | undefined;
  if (prefix !== '') {
    // The sorted dictionary holds the values with this prefix together: no view to build.
    values.forEachWithPrefix(prefix, (v, value) => {
      if (re.test(value)) found.add(v);
    });
  } else if (suffix !== '') {
    for (const v of SuffixView.forSlot(slot).candidates(suffix)) if (re.test(values.at(v) as string)) found.add(v);
  } else if (type === 'text' && pattern !== undefined && (candidates = substringCandidates(slot.tokens(), pattern, values.length)) !== undefined) {
    for (const v of candidates) {
      const value = values.at(v);
      if (typeof value === 'string' && re.test(value)) found.add(v);
    }
  } else {
    values.forEach((v, value) => {
      if (typeof value === 'string' && re.test(value)) found.add(v);
    });
  }
  if (type === 'text') {
    // Text fields also match when any single token matches.
    const ti = slot.tokens();
    const tokens: Iterable<number> = (prefix !== '' ? tokensWithPrefix(ti, prefix) : pattern !== undefined ? tokenCandidates(ti, pattern) : undefined) ?? ti.tokens.ordinals();
    const tokOrds: number[] = [];
    for (const t of tokens) if (re.test(ti.tokens.at(t))) tokOrds.push(t);
    if (tokOrds.length > 0) {
      const matching = ti.values.union(tokOrds);
      for (const v of matching.toUint32Array()) found.add(v);
      release(matching);
    }
  }
  return [...found];
}

/**
 * Value ordinals of `slot` an `eq` or `range` predicate selects (dictionary lookups for text,
 * sorted typed groups otherwise); undefined for predicates decided per value or per unit
 * (tokens, patterns, exists). Shared with the document-level postings of nested parts.
 */
export function valueOrds(slot: Slot, field: FieldDef, predicate: Predicate): number[] | undefined {
  const type = field.type;
  const ords: number[] = [];
  if (predicate.op === 'eq') {
    if (type === 'text' || type === 'keyword') {
      const want = String(predicate.value);
      if (!predicate.caseSensitive) return [...slot.lowerOrds(want.toLowerCase())];
      const ord = slot.ordOf(want);
      return ord === undefined ? ords : [ord];
    }
    const want = queryValue(type, predicate.value);
    if (want === undefined) return ords;
    const view = slot.view(type);
    const g = view.findGroup(want);
    if (g !== undefined) view.pushOrds(g, ords);
    return ords;
  }
  if (predicate.op === 'range') {
    const view = slot.view(type);
    const [from, to] = rangePositions(view, predicate);
    return from < to ? groupsOrds(view, from, to) : ords;
  }
  return undefined;
}

/** Positions [from, to) in view.sortedGroups() of the groups within a range predicate (empty when a bound is not of the type). */
function rangePositions(view: TypedView, predicate: Extract<Predicate, { op: 'range' }>): [number, number] {
  const type = view.type;
  const { lo, hi, loInclusive, hiInclusive } = predicate;
  const l = lo === undefined ? undefined : rangeBound(type, lo);
  const h = hi === undefined ? undefined : rangeBound(type, hi);
  if (l === null || h === null) return [0, 0];
  if ((lo !== undefined && l === undefined) || (hi !== undefined && h === undefined)) return [0, 0];
  const from = l === undefined ? 0 : view.bound(l, !loInclusive);
  const to = h === undefined ? view.sortedGroups().length : view.bound(h, hiInclusive);
  return [from, to];
}

/**
 * Units of `scope` with a value in a range. When values are mostly distinct (addresses,
 * timestamps), a wide range is a slice of the units in value order (see RangeUnits); otherwise
 * (ports, countries) few groups with large postings are unioned natively.
 */
function rangeMatch(scope: Scope, slot: Slot, type: FieldType, predicate: Extract<Predicate, { op: 'range' }>): Bitmap {
  const view = slot.view(type);
  const [from, to] = rangePositions(view, predicate);
  if (from >= to) return empty();
  const distinct = 2 * view.groups >= slot.fwdUnit.length;
  if (distinct && to - from >= SLICE_FROM) return rangeUnits(slot, view).unitsIn(slot, from, to, scope.idCount);
  return slot.postings.union(groupsOrds(view, from, to));
}

/** Units of `scope` matching `predicate` on the values at `path` read as `field.type`. */
export function matchField(scope: Scope, path: string, field: FieldDef, predicate: Predicate): Bitmap {
  if (predicate.op === 'exists') return scope.existing(path);
  const slot = scope.slots.get(path);
  if (!slot) return empty();
  const type = field.type;
  const textual = type === 'text' || type === 'keyword';
  switch (predicate.op) {
    case 'eq': {
      const ords = valueOrds(slot, field, predicate)!;
      return ords.length === 0 ? empty() : ords.length === 1 ? slot.postings.bitmap(ords[0]) : slot.postings.union(ords);
    }
    case 'range':
      return rangeMatch(scope, slot, type, predicate);
    case 'tokens': {
      if (type !== 'text' || predicate.tokens.length === 0) return empty();
      const values = tokenValues(slot, predicate.tokens, predicate.phrase);
      if (values.isEmpty) return values;
      const units = ValueUnits.unitsOf(slot, values.toUint32Array());
      release(values);
      return units;
    }
    case 'wildcard': {
      const re = wildcardRegExp(predicate.pattern, predicate.caseSensitive);
      if (!re) return empty();
      const prefix = predicate.caseSensitive && textual ? wildcardPrefix(predicate.pattern) : '';
      const suffix = textual ? SuffixView.literalSuffix(predicate.pattern) : '';
      return slot.postings.union(patternOrds(slot, field, re, prefix, suffix, predicate.pattern));
    }
    case 'regex': {
      const re = userRegExp(predicate.source, predicate.caseSensitive);
      if (!re) return empty();
      return slot.postings.union(patternOrds(slot, field, re, '', ''));
    }
  }
}
