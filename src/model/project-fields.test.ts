import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { projectFields, validateFieldPaths } from './project-fields.ts';
import { catalogueFor } from './field-catalogue.ts';
import { valuesOf } from './values-of.ts';

const host = {
  ip: '1.1.1.1',
  services: [
    { port: 80, service_name: 'HTTP', transport_protocol: 'TCP', http: { response: { status_code: 200 } } },
    { port: 443, service_name: 'HTTP', tls: { version_selected: 'TLSv1_3' } },
    { port: 22, service_name: 'SSH', software: [{ vendor: 'OpenBSD', product: 'OpenSSH' }, { vendor: 'Ubuntu' }] },
  ],
  location: { country: 'Australia', coordinates: { latitude: -33.49, longitude: 143.21 } },
  autonomous_system: { asn: 13335, name: 'CLOUDFLARENET' },
  labels: [],
  dns: { names: null },
};

test('ip and services.port', () => {
  assert.deepEqual(projectFields(host, ['ip', 'services.port']), {
    ip: '1.1.1.1',
    services: [{ port: 80 }, { port: 443 }, { port: 22 }],
  });
});

test('two paths under the same array merge per element', () => {
  assert.deepEqual(projectFields(host, ['services.port', 'services.service_name']), {
    services: [
      { port: 80, service_name: 'HTTP' },
      { port: 443, service_name: 'HTTP' },
      { port: 22, service_name: 'SSH' },
    ],
  });
});

test('elements left empty are dropped, the others keep their order', () => {
  assert.deepEqual(projectFields(host, ['services.tls.version_selected', 'services.software.vendor']), {
    services: [{ tls: { version_selected: 'TLSv1_3' } }, { software: [{ vendor: 'OpenBSD' }, { vendor: 'Ubuntu' }] }],
  });
  assert.deepEqual(projectFields(host, ['services.software.product']), {
    services: [{ software: [{ product: 'OpenSSH' }] }],
  });
});

test('a path naming an object returns its whole subtree', () => {
  assert.deepEqual(projectFields(host, ['location']), { location: host.location });
  assert.deepEqual(projectFields(host, ['services.http']), {
    services: [{ http: { response: { status_code: 200 } } }],
  });
  // A whole-subtree path absorbs the paths below it.
  assert.deepEqual(projectFields(host, ['location.country', 'location']), { location: host.location });
});

test('missing paths, nulls and empty containers are absent', () => {
  assert.deepEqual(projectFields(host, ['nope', 'services.nope', 'labels', 'dns.names', 'ip.more']), {});
  assert.deepEqual(projectFields(host, []), {});
  assert.deepEqual(projectFields(host, ['nope', 'ip']), { ip: '1.1.1.1' });
});

test('keys follow the requested order; the projection does not alias the document', () => {
  const out = projectFields(host, ['location', 'ip']);
  assert.deepEqual(Object.keys(out), ['location', 'ip']);
  (out.location as { country: string }).country = 'changed';
  assert.equal(host.location.country, 'Australia');
});

test('header document paths (mixed case keys) project as stored', () => {
  const doc = { services: [{ http: { response: { headers: { Server: ['nginx'], Content_Type: ['text/html'] } } } }] };
  assert.deepEqual(projectFields(doc, ['services.http.response.headers.Server']), {
    services: [{ http: { response: { headers: { Server: ['nginx'] } } } }],
  });
});

// Random JSON-like documents over a small key alphabet, so that paths collide often.
const key = fc.constantFrom('a', 'b', 'c', 'd');
const leaf = fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.boolean(), fc.constant(null));
const { tree } = fc.letrec<{ tree: unknown; obj: Record<string, unknown> }>((tie) => ({
  tree: fc.oneof({ depthSize: 'small' }, leaf, tie('obj'), fc.array(tie('tree'), { maxLength: 3 })),
  obj: fc.dictionary(key, tie('tree'), { maxKeys: 4 }),
}));
const doc = fc.dictionary(key, tree, { maxKeys: 4 });

function leafPaths(node: unknown, prefix: string, out: Set<string>): Set<string> {
  if (node === null || node === undefined) return out;
  if (Array.isArray(node)) {
    for (const item of node) leafPaths(item, prefix, out);
  } else if (typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) leafPaths(v, prefix === '' ? k : `${prefix}.${k}`, out);
  } else if (prefix !== '') {
    out.add(prefix);
  }
  return out;
}

/** The document without nulls and without containers that hold no leaf. */
function withoutEmpty(node: unknown): unknown {
  if (node === null || node === undefined) return undefined;
  if (Array.isArray(node)) {
    const items = node.map(withoutEmpty).filter((x) => x !== undefined);
    return items.length ? items : undefined;
  }
  if (typeof node === 'object') {
    const entries = Object.entries(node)
      .map(([k, v]) => [k, withoutEmpty(v)] as const)
      .filter(([, v]) => v !== undefined);
    return entries.length ? Object.fromEntries(entries) : undefined;
  }
  return node;
}

const somePaths = fc.array(
  fc.array(key, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('.')),
  { maxLength: 5 },
);

test('property: projecting on every leaf path gives the document minus empty containers', () => {
  fc.assert(
    fc.property(doc, (d) => {
      const paths = [...leafPaths(d, '', new Set())];
      const projected = projectFields(d, paths);
      assert.deepEqual(projected, withoutEmpty(d) ?? {});
    }),
    { numRuns: 300 },
  );
});

test('property: projecting is idempotent', () => {
  fc.assert(
    fc.property(doc, somePaths, (d, paths) => {
      const once = projectFields(d, paths);
      assert.deepEqual(projectFields(once, paths), once);
    }),
    { numRuns: 300 },
  );
});

test('property: a projection keeps exactly the values of the requested paths, in order', () => {
  fc.assert(
    fc.property(doc, somePaths, (d, paths) => {
      const projected = projectFields(d, paths);
      for (const p of paths) assert.deepEqual(valuesOf(projected, p), valuesOf(d, p));
      // Nothing outside the requested paths survives.
      for (const p of leafPaths(projected, '', new Set())) {
        assert.ok(paths.some((q) => p === q || p.startsWith(q + '.')), p);
      }
    }),
    { numRuns: 300 },
  );
});

test('validateFieldPaths maps fields and prefixes to document paths', () => {
  const hosts = catalogueFor('hosts');
  assert.deepEqual(
    validateFieldPaths(hosts, [
      'ip',
      'Services.Port',
      'location',
      'services.tls',
      'services.http.response.headers.content_type.headers',
      'ip',
    ]),
    {
      ok: true,
      docPaths: [
        'ip',
        'services.port',
        'location',
        'services.tls',
        'services.http.response.headers.Content_Type',
      ],
    },
  );
  assert.deepEqual(validateFieldPaths(hosts, []), { ok: true, docPaths: [] });
  assert.deepEqual(validateFieldPaths(hosts, ['ip', 'services.servce_name']), {
    ok: false,
    path: 'services.servce_name',
    suggestion: 'services.service_name',
  });
  const certs = catalogueFor('certificates');
  assert.deepEqual(validateFieldPaths(certs, ['names', 'parsed.validity_period']), {
    ok: true,
    docPaths: ['names', 'parsed.validity_period'],
  });
  const bad = validateFieldPaths(certs, ['qqqqqqqqqqqqqqqqqqqqqqqqqqqq']);
  assert.equal(bad.ok, false);
  if (!bad.ok) assert.equal(bad.suggestion, undefined);
});

test('validated paths project a real-shaped host', () => {
  const check = validateFieldPaths(catalogueFor('hosts'), ['ip', 'services.port', 'services.service_name', 'location.country']);
  assert.ok(check.ok);
  assert.deepEqual(projectFields(host, check.docPaths), {
    ip: '1.1.1.1',
    services: [
      { port: 80, service_name: 'HTTP' },
      { port: 443, service_name: 'HTTP' },
      { port: 22, service_name: 'SSH' },
    ],
    location: { country: 'Australia' },
  });
});
