/** A certificate document that expired five days before `now` (risk tests expect `cert.expired` on it). */
const DAY = 86_400_000;

export function expiredCertificate(sha256: string, now: Date): Record<string, unknown> {
  return {
    fingerprint_sha256: sha256,
    names: ['old.example.com'],
    parsed: {
      subject: { common_name: ['old.example.com'] },
      validity_period: { not_before: new Date(now.getTime() - 400 * DAY).toISOString(), not_after: new Date(now.getTime() - 5 * DAY).toISOString() },
      subject_key_info: { key_algorithm: { name: 'RSA' }, rsa: { length: 2048 } },
      signature: { signature_algorithm: { name: 'SHA256-RSA' }, self_signed: false },
      extensions: { basic_constraints: { is_ca: false } },
    },
    validation: { nss: { is_valid: true } },
  };
}
