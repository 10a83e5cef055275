/**
 * Software versions: known vulnerabilities (vulnerable-software.ts) and end-of-life branches
 * (eol-software.ts), on each service and, for operating systems, on the host.
 */
import { EOL_SOFTWARE, EOL_SOFTWARE_AS_OF, type EolRow } from '../eol-software.ts';
import type { Finding, ServiceDoc } from '../risk-model.ts';
import { strAt } from '../service-view.ts';
import { operatingSystems, serviceSoftware, type SoftwareFact } from '../software-facts.ts';
import { inRange } from '../version-compare.ts';
import { VULNERABLE_SOFTWARE, VULNERABLE_SOFTWARE_AS_OF, type ProductMatch, type VulnerableSoftware } from '../vulnerable-software.ts';
import { finding, type HostDetector, type ServiceDetector } from './detector.ts';

function matches(f: SoftwareFact, m: ProductMatch): boolean {
  if (f.product !== m.product) return false;
  return !m.vendors || f.vendor === undefined || m.vendors.includes(f.vendor);
}

function fixedByDistribution(row: VulnerableSoftware, s: ServiceDoc): string | undefined {
  const comment = strAt(s, 'ssh.endpoint_id.comment');
  if (!comment || !row.distributionFixes) return undefined;
  for (const fix of row.distributionFixes) {
    if (!comment.startsWith(fix.commentPrefix)) continue;
    const rev = /^\d+/.exec(comment.slice(fix.commentPrefix.length));
    if (rev && Number(rev[0]) >= fix.fixedRevision) return comment;
  }
  return undefined;
}

export const vulnerableSoftware: ServiceDetector = {
  id: 'vulnerable-software',
  family: 'software',
  on: 'service',
  types: [...new Set(VULNERABLE_SOFTWARE.map((r) => r.type))],
  detect(s) {
    const facts = serviceSoftware(s).filter((f) => f.version);
    const out: Finding[] = [];
    const seen = new Set<string>();
    for (const row of VULNERABLE_SOFTWARE) {
      if (seen.has(row.type)) continue;
      const f = facts.find((x) => matches(x, row.match) && row.ranges.some((r) => inRange(x.version!, r)));
      if (!f || fixedByDistribution(row, s)) continue;
      seen.add(row.type);
      out.push({
        ...finding(row.type, { product: f.product, version: f.version, source: f.source, cves: row.cves, tableAsOf: VULNERABLE_SOFTWARE_AS_OF, versionBased: true }, { software: f.label, cve: row.cves }),
        severity: row.severity,
      });
    }
    return out;
  },
};

function eolRow(f: SoftwareFact, now: Date, rows: readonly EolRow[]): EolRow | undefined {
  return rows.find((r) => {
    if (!matches(f, r.match)) return false;
    if (r.versions && (!f.version || !inRange(f.version, r.versions))) return false;
    return now.getTime() >= Date.parse(`${r.eol}T00:00:00Z`);
  });
}

const SERVICE_ROWS = EOL_SOFTWARE.filter((r) => !['software.eol.windows', 'software.eol.ubuntu', 'software.eol.debian', 'software.eol.centos'].includes(r.type));
const OS_ROWS = EOL_SOFTWARE.filter((r) => !SERVICE_ROWS.includes(r));

function eolEvidence(f: SoftwareFact, r: EolRow): Record<string, unknown> {
  return { product: f.product, ...(f.version ? { version: f.version } : {}), branch: r.branch, endOfLife: r.eol, tableAsOf: EOL_SOFTWARE_AS_OF };
}

export const endOfLifeSoftware: ServiceDetector = {
  id: 'end-of-life-software',
  family: 'software',
  on: 'service',
  types: [...new Set(SERVICE_ROWS.map((r) => r.type))],
  detect(s, _host, ctx) {
    const out: Finding[] = [];
    const seen = new Set<string>();
    for (const f of serviceSoftware(s)) {
      const r = eolRow(f, ctx.now, SERVICE_ROWS);
      if (!r || seen.has(r.type)) continue;
      seen.add(r.type);
      out.push(finding(r.type, eolEvidence(f, r), { software: f.label }));
    }
    return out;
  },
};

export const endOfLifeOperatingSystem: HostDetector = {
  id: 'end-of-life-operating-system',
  family: 'software',
  on: 'host',
  types: [...new Set(OS_ROWS.map((r) => r.type))],
  detect(host, ctx) {
    const out: Finding[] = [];
    const seen = new Set<string>();
    for (const f of operatingSystems(host)) {
      const r = eolRow(f, ctx.now, OS_ROWS);
      if (!r || seen.has(r.type)) continue;
      seen.add(r.type);
      out.push(finding(r.type, eolEvidence(f, r), { software: r.branch }));
    }
    return out;
  },
};
