/**
 * The shapes risk detection works with: the catalogue entry of a risk type, the documents it reads
 * (Censys host and certificate documents, contract §3.1 and §3.3, and the storage-bucket input
 * defined here) and what a detector reports.
 */

export type Severity = 'low' | 'medium' | 'high' | 'critical';
export type ContextType = 'service' | 'host' | 'cert' | 'storage';
export type SubjectType = 'HOST' | 'CERT' | 'STORAGE_BUCKET' | 'DOMAIN';

export const SEVERITIES: readonly Severity[] = ['low', 'medium', 'high', 'critical'];

/** One entry of the risk-type catalogue, in the field names of the ASM `RiskType` object. */
export interface RiskType {
  readonly type: string;
  readonly name: string;
  readonly description: string;
  readonly contextType: ContextType;
  readonly subjectType: SubjectType;
  readonly defaultSeverity: Severity;
  readonly recommendedSeverity: Severity;
  /** `[[category], [subcategory]]`, the nested-array shape the ASM API serves. */
  readonly defaultCategories: readonly (readonly string[])[];
  readonly remediations: readonly string[];
  readonly enabled: boolean;
  /** Free-form configuration of the type; '' when it has none. */
  readonly config: string;
}

/** A Censys service object (contract §3.1); only the keys detectors read are named. */
export type ServiceDoc = Record<string, unknown> & {
  port: number;
  service_name?: string;
  extended_service_name?: string;
  transport_protocol?: string;
};

/** A Censys host document (`ip`, or `ip` + `name` for a virtual host). */
export type HostDoc = Record<string, unknown> & {
  ip: string;
  name?: string;
  services?: readonly ServiceDoc[];
};

/** A Censys certificate document; only the fingerprint is required, everything else is read if present. */
export type CertDoc = Record<string, unknown> & { fingerprint_sha256: string };

/**
 * An object-storage asset as discovery or a cloud connector reports it. `access` says what an
 * anonymous client was able to do; absent flags mean "not observed", never "allowed".
 */
export interface StorageDoc {
  /** Bucket or container name, the asset's identity. */
  readonly bucket: string;
  /** `aws`, `gcp`, `azure` or another provider id. */
  readonly provider?: string;
  readonly region?: string;
  /** Endpoint the observation was made on, e.g. `https://example.s3.amazonaws.com/`. */
  readonly url?: string;
  readonly access: { readonly list?: boolean; readonly read?: boolean; readonly write?: boolean };
  /** Names of a few objects seen when listing was possible (evidence only). */
  readonly sampleObjects?: readonly string[];
}

export interface RiskSubject {
  ip?: string;
  /** Virtual host name (hosts) or domain name (domains). */
  name?: string;
  sha256?: string;
  bucket?: string;
}

export interface RiskContext {
  port?: number;
  transportProtocol?: string;
  serviceName?: string;
  /** Human form of the software the risk is about, e.g. `OpenSSH 8.9p1`. */
  software?: string;
  cve?: readonly string[];
}

export interface DetectedRisk {
  type: string;
  subjectType: SubjectType;
  subject: RiskSubject;
  context: RiskContext;
  severity: Severity;
  /** e.g. `Expired certificate on 1.2.3.4:443`. */
  title: string;
  evidence: Record<string, unknown>;
}

export interface DetectContext {
  readonly now: Date;
  /** The certificate document of a fingerprint, when the index has it. */
  readonly certificates: (sha256: string) => CertDoc | undefined;
  /** Types for which this returns false are not reported (default: the catalogue's `enabled`). */
  readonly enabled?: (type: string) => boolean;
  /**
   * Severity to report for a type, replacing whatever the finding or the catalogue says; when it
   * answers undefined, the finding's own severity, then the catalogue's `defaultSeverity`, apply.
   */
  readonly severity?: (type: string) => Severity | undefined;
  /** A workspace's configuration of a type (e.g. `days=14`); undefined keeps the catalogue's. */
  readonly config?: (type: string) => string | undefined;
}

/** What a detector finds before the subject, title and severity are filled in. */
export interface Finding {
  readonly type: string;
  readonly context?: RiskContext;
  readonly evidence: Record<string, unknown>;
  /** Replaces the catalogue severity (e.g. a vulnerability table row with its own rating). */
  readonly severity?: Severity;
}
