/** Exit codes of the `periscope` command (also listed in the README). */
export const EXIT = {
  ok: 0,
  /** The work failed (a database, file or network error). */
  failure: 1,
  /** The command line or configuration is wrong. */
  usage: 2,
  /** The command finished, but some input records were rejected. */
  partial: 3,
} as const;
