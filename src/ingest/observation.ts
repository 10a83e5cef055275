/**
 * What every ingest source produces: observations of hosts and certificates, or rejected records.
 * Readers (one folder per format) only translate their format into these; merging observations
 * into Censys host documents, enrichment, certificate parsing and storage happen once, in
 * ingest/pipeline/. This file is the contract between the two sides.
 */
import type { Readable } from 'node:stream';

export type Transport = 'TCP' | 'UDP' | 'QUIC';

/** A software identification, in Censys/CPE terms. Fields absent when unknown. */
export interface SoftwareObservation {
  /** CPE 2.3 URI when known (`cpe:2.3:a:nginx:nginx:1.18.0:*:*:*:*:*:*:*`); a CPE 2.2 `cpe:/a:...` is accepted and converted. */
  readonly cpe?: string;
  readonly vendor?: string;
  readonly product?: string;
  readonly version?: string;
  /** `a` application, `o` operating system, `h` hardware. */
  readonly part?: 'a' | 'o' | 'h';
  /** Free-form extra detail (e.g. nmap's extrainfo). */
  readonly other?: Readonly<Record<string, string>>;
}

export interface TlsObservation {
  /** DER certificates as presented, leaf first. May be empty when only metadata was captured. */
  readonly chain: readonly Uint8Array[];
  /** e.g. `TLSv1_3`, `TLSv1_2` (Censys spelling). */
  readonly versionSelected?: string;
  /** e.g. `TLS_AES_128_GCM_SHA256`. */
  readonly cipherSelected?: string;
  readonly ja3s?: string;
  readonly ja4s?: string;
}

export interface ServiceObservation {
  readonly port: number;
  readonly transport: Transport;
  /**
   * open: the service answered (or the port is open). closed: the scan probed this port and found
   * it closed or filtered, which removes a previously known service on that port.
   */
  readonly state: 'open' | 'closed';
  /** Censys service name when the tool identified the protocol (`HTTP`, `SSH`, `UNKNOWN` ...); the pipeline falls back to the port. */
  readonly serviceName?: string;
  /** e.g. `HTTPS` for HTTP over TLS. */
  readonly extendedServiceName?: string;
  readonly banner?: string;
  readonly software?: readonly SoftwareObservation[];
  /**
   * Protocol sub-objects in the Censys schema, keyed by protocol (`http`, `ssh`, `ftp`, `smtp`,
   * `redis`, ... or, for modules without a Censys mapping, the tool's protocol name). HTTP header
   * maps use canonicalHeaderKey (model/field-catalogue.ts) for their keys.
   */
  readonly protocols?: Readonly<Record<string, unknown>>;
  readonly tls?: TlsObservation;
  readonly labels?: readonly string[];
}

export interface HostObservation {
  /** IPv4 or IPv6 text; the pipeline normalises it. */
  readonly ip: string;
  /** Set when the observation is of a named virtual host (HTTP Host / TLS SNI), id `ip+name`. */
  readonly name?: string;
  /** RFC 3339 time of the observation. */
  readonly observedAt: string;
  /** The tool that produced it (`zgrab2`, `masscan`, `nmap`, `naabu`, `httpx`, `tlsx`). */
  readonly source: string;
  readonly services: readonly ServiceObservation[];
  /** Forward DNS names seen resolving to the IP. */
  readonly names?: readonly string[];
  readonly reverseDns?: readonly string[];
  readonly operatingSystem?: SoftwareObservation;
  readonly labels?: readonly string[];
}

export interface CertificateObservation {
  /** The certificate (or precertificate with its poison extension), DER. */
  readonly der: Uint8Array;
  /** Issuer chain as supplied with it (CT extra_data, a PEM bundle), nearest issuer first. */
  readonly chain?: readonly Uint8Array[];
  /** Where it was logged, for CT entries. */
  readonly ct?: { readonly log: string; readonly index: number; readonly timestamp: string };
  readonly source: string;
}

/** Where a record came from in its input: `line 12`, `byte 4096`, `entry 3`, `file x.pem block 2`. */
export type Position = string;

export type IngestRecord =
  | { readonly kind: 'host'; readonly position: Position; readonly host: HostObservation }
  | { readonly kind: 'certificate'; readonly position: Position; readonly certificate: CertificateObservation }
  | { readonly kind: 'rejected'; readonly position: Position; readonly reason: string };

/** One input format. */
export interface IngestSource {
  /** Name used by `--format` (`zgrab2`, `masscan-json`, `masscan-list`, `masscan-binary`, `masscan-xml`, `nmap-xml`, `naabu`, `httpx`, `tlsx`, `pem`, `der`, `pkcs7`, `ct-entries`). */
  readonly format: string;
  /**
   * True when the start of an input (up to 64 KiB, possibly cut mid-record) looks like this format.
   * Detection asks every source in a fixed order; the first that claims the input reads it.
   */
  sniff(head: Buffer): boolean;
  /** Streams records; never throws on bad input (a bad record is a `rejected` record), only on I/O errors. */
  read(input: Readable, options: { readonly now: Date }): AsyncIterable<IngestRecord>;
}
