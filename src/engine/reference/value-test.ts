/**
 * The meaning of each predicate on ONE typed value of a field (see query/resolved.ts). A
 * document or element matches a non-exists predicate when any of its values passes this test.
 */
import type { FieldType } from '../../model/field-def.ts';
import type { Predicate } from '../../query/resolved.ts';
import { tokenize } from '../../model/tokenize.ts';
import { compareTyped, matchForm, queryValue, rangeBound, type Typed } from './typed-value.ts';
import { tokensMatch, userRegExp, wildcardRegExp } from './matchers.ts';

export type ValueTest = (t: Typed) => boolean;

const never: ValueTest = () => false;

function textual(type: FieldType): boolean {
  return type === 'text' || type === 'keyword';
}

function patternTest(type: FieldType, re: RegExp | undefined): ValueTest {
  if (!re) return never;
  if (type === 'text') return (t) => re.test(t as string) || tokenize(t as string).some((tok) => re.test(tok));
  if (type === 'keyword') return (t) => re.test(t as string);
  return (t) => re.test(matchForm(type, t));
}

/** A test for typed values of a field of `type`; `exists` is not a value test (it is structural). */
export function valueTest(type: FieldType, p: Predicate): ValueTest {
  switch (p.op) {
    case 'exists':
      return () => true;
    case 'eq': {
      if (textual(type)) {
        const want = String(p.value);
        if (p.caseSensitive) return (t) => t === want;
        const lower = want.toLowerCase();
        return (t) => (t as string).toLowerCase() === lower;
      }
      const want = queryValue(type, p.value);
      return want === undefined ? never : (t) => t === want;
    }
    case 'tokens': {
      if (type !== 'text' || p.tokens.length === 0) return never;
      return (t) => tokensMatch(tokenize(t as string), p.tokens, p.phrase);
    }
    case 'range': {
      const lo = p.lo === undefined ? undefined : rangeBound(type, p.lo);
      const hi = p.hi === undefined ? undefined : rangeBound(type, p.hi);
      if (lo === null || hi === null) return never;
      if ((p.lo !== undefined && lo === undefined) || (p.hi !== undefined && hi === undefined)) return never;
      return (t) => {
        const v = t as string | number;
        if (lo !== undefined) {
          if (typeof lo !== typeof v) return false;
          const c = compareTyped(v, lo);
          if (c < 0 || (c === 0 && !p.loInclusive)) return false;
        }
        if (hi !== undefined) {
          if (typeof hi !== typeof v) return false;
          const c = compareTyped(v, hi);
          if (c > 0 || (c === 0 && !p.hiInclusive)) return false;
        }
        return true;
      };
    }
    case 'wildcard':
      return patternTest(type, wildcardRegExp(p.pattern, p.caseSensitive));
    case 'regex':
      return patternTest(type, userRegExp(p.source, p.caseSensitive));
  }
}

const cache = new WeakMap<Predicate, Map<FieldType, ValueTest>>();

/** valueTest, compiled once per predicate object and type. */
export function cachedValueTest(type: FieldType, p: Predicate): ValueTest {
  let byType = cache.get(p);
  if (!byType) cache.set(p, (byType = new Map()));
  let test = byType.get(type);
  if (!test) byType.set(type, (test = valueTest(type, p)));
  return test;
}
