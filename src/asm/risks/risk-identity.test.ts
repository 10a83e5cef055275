import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectCertificateRisks, detectHostRisks, identity, type HostDoc } from './index.ts';

const ctx = { now: new Date('2026-11-01T00:00:00Z'), certificates: () => undefined };

function sshHost(version: string, banner: string, port = 22, name?: string): HostDoc {
  return {
    ip: '198.51.100.7',
    ...(name ? { name } : {}),
    services: [{ port, service_name: 'SSH', transport_protocol: 'TCP', banner, software: [{ part: 'a', vendor: 'openbsd', product: 'openssh', version, update: 'p1' }] }],
  };
}

function key(h: HostDoc, type: string): string {
  const r = detectHostRisks(h, ctx).find((x) => x.type === type);
  assert.ok(r, type);
  return identity(r);
}

test('same host, port and type keep their identity when the banner and version change', () => {
  const a = key(sshHost('9.2', 'SSH-2.0-OpenSSH_9.2p1'), 'software.vulnerable.openssh_regresshion');
  const b = key(sshHost('9.6', 'SSH-2.0-OpenSSH_9.6p1 extra'), 'software.vulnerable.openssh_regresshion');
  assert.equal(a, b);
  assert.equal(a, 'host:198.51.100.7|software.vulnerable.openssh_regresshion|22/TCP');
});

test('a different port, transport, type or subject is a different identity', () => {
  const base = key(sshHost('9.2', 'x'), 'software.vulnerable.openssh_regresshion');
  assert.notEqual(key(sshHost('9.2', 'x', 2222), 'software.vulnerable.openssh_regresshion'), base);
  assert.notEqual(key(sshHost('9.2', 'x', 22, 'vhost.example.com'), 'software.vulnerable.openssh_regresshion'), base);
  assert.notEqual(identity({ subject: { ip: '198.51.100.7' }, type: 'software.vulnerable.openssh_regresshion', context: { port: 22, transportProtocol: 'UDP' } }), base);
  assert.notEqual(identity({ subject: { ip: '198.51.100.7' }, type: 'service.remote_access.telnet_exposed', context: { port: 22, transportProtocol: 'TCP' } }), base);
});

test('severity, title, evidence and software do not enter the identity', () => {
  const a = identity({ subject: { ip: '1.2.3.4' }, type: 't.x', context: { port: 443, transportProtocol: 'TCP', software: 'nginx 1.18.0', serviceName: 'HTTP' } });
  const b = identity({ subject: { ip: '1.2.3.4' }, type: 't.x', context: { port: 443, software: 'nginx 1.18.1' } });
  assert.equal(a, b);
});

test('certificate risks are keyed by fingerprint', () => {
  const cert = { fingerprint_sha256: 'AB'.repeat(32), parsed: { validity_period: { not_after: '2026-01-01T00:00:00Z' } } };
  const [r] = detectCertificateRisks(cert, ctx);
  assert.equal(identity(r), `cert:${'ab'.repeat(32)}|cert.expired|`);
});
