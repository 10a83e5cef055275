import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeEntities, xmlEvents, type XmlEvent } from './xml-stream.ts';
import { xmlRecords } from './xml-records.ts';

async function events(chunks: (string | Buffer)[], nonNesting?: string[]): Promise<XmlEvent[]> {
  const out: XmlEvent[] = [];
  async function* gen() {
    for (const c of chunks) yield typeof c === 'string' ? Buffer.from(c) : c;
  }
  for await (const e of xmlEvents(gen(), nonNesting ? { nonNesting: new Set(nonNesting) } : {})) out.push(e);
  return out;
}

function brief(evs: XmlEvent[]): string[] {
  return evs.map((e) =>
    e.type === 'open' ? `<${e.name} ${JSON.stringify(e.attrs)}@${e.offset}` : e.type === 'close' ? `</${e.name}@${e.offset}` : e.type === 'text' ? `t:${JSON.stringify(e.text)}` : `!${e.message}@${e.offset}`,
  );
}

const DOC =
  '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE nmaprun>\n<?xml-stylesheet href="x.xsl" type="text/xsl"?>\n<!-- a comment with <tags> -->\n' +
  '<nmaprun scanner="nmap" args="nmap -&#45;script &quot;x&quot; &lt;&gt;"><host a=\'1\' b="é &amp; &#xe9;&#233;"><elem key="pem">-----BEGIN&#xa;x</elem><x/></host><![CDATA[raw <b>]]></nmaprun>\n';

test('elements, attributes with entities, text, comments, declarations, CDATA', async () => {
  const evs = await events([DOC]);
  const b = brief(evs.filter((e) => e.type !== 'text' || e.text.trim() !== ''));
  const rootAt = Buffer.from(DOC).indexOf('<nmaprun');
  assert.deepEqual(b, [
    `<nmaprun {"scanner":"nmap","args":"nmap --script \\"x\\" <>"}@${rootAt}`,
    `<host {"a":"1","b":"é & éé"}@${Buffer.from(DOC).indexOf('<host')}`,
    `<elem {"key":"pem"}@${Buffer.from(DOC).indexOf('<elem')}`,
    't:"-----BEGIN\\nx"',
    `</elem@${Buffer.from(DOC).indexOf('</elem')}`,
    `<x {}@${Buffer.from(DOC).indexOf('<x/>')}`,
    `</x@${Buffer.from(DOC).indexOf('<x/>')}`,
    `</host@${Buffer.from(DOC).indexOf('</host')}`,
    't:"raw <b>"',
    `</nmaprun@${Buffer.from(DOC).indexOf('</nmaprun')}`,
  ]);
});

test('the same events whatever the chunk boundaries (every split point, multi-byte characters included)', async () => {
  const bytes = Buffer.from(DOC);
  const whole = brief(await events([bytes]));
  for (let i = 1; i < bytes.length; i++) {
    const split = brief(await events([bytes.subarray(0, i), bytes.subarray(i)]));
    // Text runs may arrive whole or not at all differently; compare non-text events and joined text.
    assert.deepEqual(split.filter((s) => !s.startsWith('t:')), whole.filter((s) => !s.startsWith('t:')), `split at ${i}`);
  }
  const oneByOne = brief(await events([...bytes].map((b) => Buffer.from([b]))));
  assert.deepEqual(oneByOne.filter((s) => !s.startsWith('t:')), whole.filter((s) => !s.startsWith('t:')));
});

test('decodeEntities leaves unknown entities alone', () => {
  assert.equal(decodeEntities('a &amp; b &nbsp; &#x41;&#66; &bogus'), 'a & b &nbsp; AB &bogus');
});

test('a mismatched close tag is an error at its offset, and the stack is repaired', async () => {
  const doc = '<r><a><b></a><c/></r>';
  const b = brief(await events([doc]));
  assert.deepEqual(b, ['<r {}@0', '<a {}@3', '<b {}@6', '!</a> found where </b> was expected@9', '</b@9', '</a@9', '<c {}@13', '</c@13', '</r@17']);
});

test('malformed tags, stray close tags, truncated input', async () => {
  const doc = '<r><a x="1" y=2/><b></zz><c x="1" x="2"/><d';
  const b = brief(await events([doc]));
  assert.deepEqual(b, [
    '<r {}@0',
    '!malformed attributes in <a>@3',
    '<b {}@17',
    '!</zz> found where </b> was expected@20',
    '!duplicate attribute x in <c>@25',
    '!unterminated tag@41',
    '!input ended inside <b>@43',
    '</b@43',
    '</r@43',
  ]);
});

test('a non-nesting element opened inside itself closes the unfinished one', async () => {
  const doc = '<r><host><ports><host><a/></host></r>';
  const recs = [];
  async function* gen() {
    yield Buffer.from(doc);
  }
  for await (const r of xmlRecords(gen(), { nonNesting: new Set(['host']) })) recs.push(r);
  assert.deepEqual(
    recs.map((r) => (r.kind === 'error' ? `error ${r.offset} ${r.recordName}` : `${r.kind} ${r.element.name} ${r.element.offset}`)),
    ['root r 0', 'error 16 host', 'record host 16'],
  );
});

test('text outside the root and content after it are reported', async () => {
  const b = brief(await events(['junk<r/><s/>']));
  assert.deepEqual(b, ['!text outside the root element@0', '<r {}@4', '</r@4', '!<s> after the root element@8', '<s {}@8', '</s@8']);
});
