export { mergeObservation, softwareDoc, perspectiveOf, type HostDoc, type MergeContext } from './merge-host.ts';
export { hostIdOf, type HostId } from './host-id.ts';
export { serviceByPort, type PortService } from './service-names-by-port.ts';
export { parseCpe, formatCpe23, toCpe23, type CpeParts } from './cpe.ts';
export { compareServices, type ServiceChanges } from './compare-services.ts';
export {
  runIngest,
  mergeCertificate,
  emptySummary,
  sha256Hex,
  DEFAULT_BATCH_SIZE,
  DEFAULT_SERVICE_EXPIRY_MS,
  type IngestDeps,
  type IngestSummary,
  type RejectedRecord,
  type DocumentWriter,
} from './pipeline.ts';
export { SOURCES, sourceByFormat, formatNames } from './sources.ts';
export { detectFormat, SNIFF_BYTES } from './detect-format.ts';
export { openForIngest, type PeekedInput } from './open-input.ts';
export { parseDuration } from './parse-duration.ts';
export { ingestStream, checkFormat, type IngestInput, type IngestStreamResult } from './ingest-stream.ts';
export { formatSummary } from './format-summary.ts';
