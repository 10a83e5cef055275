/** Every detector, in the order findings are reported. */
import {
  certificateCrypto,
  certificateExpiry,
  certificateTrust,
  presentedCertificateExpiry,
  presentedNameMismatch,
  presentedSelfSigned,
  presentedUntrusted,
  presentedWeakKey,
  presentedWeakSignature,
} from './certificates.ts';
import type { CertDetector, Detector, HostDetector, ServiceDetector, StorageDetector } from './detector.ts';
import { dockerApi, exposedService, memcachedUdp, mqttWithoutAuth, ntpAmplification, openResolver, rdpWithoutNla, redisWithoutAuth, smbV1, snmpPublic, vncWithoutAuth } from './exposure.ts';
import { ftpAnonymous, ftpWithoutTls } from './ftp.ts';
import { adminPanel, basicAuthOverPlaintext, defaultPage, directoryListing, loginOverPlaintext, missingHsts, missingSecurityHeaders } from './http.ts';
import { endOfLifeOperatingSystem, endOfLifeSoftware, vulnerableSoftware } from './software.ts';
import { publicBucket } from './storage.ts';
import { weakTlsCipher, weakTlsVersion } from './tls.ts';

export const DETECTORS: readonly Detector[] = [
  presentedCertificateExpiry,
  presentedSelfSigned,
  presentedUntrusted,
  presentedWeakKey,
  presentedWeakSignature,
  presentedNameMismatch,
  weakTlsVersion,
  weakTlsCipher,
  ftpWithoutTls,
  exposedService,
  redisWithoutAuth,
  rdpWithoutNla,
  vncWithoutAuth,
  smbV1,
  snmpPublic,
  ntpAmplification,
  memcachedUdp,
  openResolver,
  mqttWithoutAuth,
  dockerApi,
  ftpAnonymous,
  loginOverPlaintext,
  basicAuthOverPlaintext,
  missingHsts,
  missingSecurityHeaders,
  directoryListing,
  adminPanel,
  defaultPage,
  vulnerableSoftware,
  endOfLifeSoftware,
  endOfLifeOperatingSystem,
  certificateExpiry,
  certificateTrust,
  certificateCrypto,
  publicBucket,
];

export const SERVICE_DETECTORS = DETECTORS.filter((d): d is ServiceDetector => d.on === 'service');
export const HOST_DETECTORS = DETECTORS.filter((d): d is HostDetector => d.on === 'host');
export const CERT_DETECTORS = DETECTORS.filter((d): d is CertDetector => d.on === 'cert');
export const STORAGE_DETECTORS = DETECTORS.filter((d): d is StorageDetector => d.on === 'storage');
