/**
 * Risk records of a workspace as the store keeps them: instances (one per detected problem, kept
 * across re-evaluations by their identity), the event log of every change to an instance or a
 * type, and the workspace's settings per risk type. Presenters in api/ turn them into the wire
 * shapes of contract §2B.6/§2B.7.
 */

/** Families a risk can be about (contract §2B.7 `assetType`). */
export type RiskAssetType = 'HOST' | 'CERT' | 'DOMAIN' | 'STORAGE_BUCKET';

export type RiskStatus = 'open' | 'resolved';

/** Detected severities plus `accepted`, which a user may set to accept a risk (contract §2B.7). */
export type RiskSeverity = 'low' | 'medium' | 'high' | 'critical' | 'accepted';

export interface NewRiskInstance {
  readonly typeId: string;
  /** `identity()` of the detected risk; unique in the workspace. */
  readonly identity: string;
  readonly assetType: RiskAssetType;
  /** The asset the risk belongs to (an IP for hosts, a SHA-256, a bucket id). */
  readonly assetId: string;
  /** Subject and place (ip, name, port, transportProtocol, ...) as detection reported them. */
  readonly context: Readonly<Record<string, unknown>>;
  readonly title: string;
  /** Severity detection gave it (type setting or catalogue). */
  readonly severity: Exclude<RiskSeverity, 'accepted'>;
  readonly evidence: Readonly<Record<string, unknown>>;
  /** Cloud provider of the asset when evaluated (v1 `cloud`/`environment` filters). */
  readonly cloud: string | null;
  readonly status: RiskStatus;
  readonly firstComputedAt: string;
  readonly lastComputedAt: string;
  readonly resolvedAt: string | null;
}

export interface RiskInstance extends NewRiskInstance {
  /** Database integer, the wire `id`. */
  readonly id: number;
  readonly workspaceId: string;
  /** A user's severity; replaces `severity` on the wire when set. */
  readonly severityOverride: RiskSeverity | null;
  readonly userStatus: string | null;
  /** A user's categories; the type's categories apply when null. */
  readonly categories: readonly string[] | null;
  /** User metadata entries (the system entry is implied). */
  readonly metadata: readonly Readonly<Record<string, unknown>>[];
  readonly updatedAt: string;
}

/** What an instance write may change; absent keys stay as stored. */
export type RiskInstanceChange = Partial<
  Pick<
    RiskInstance,
    | 'context'
    | 'title'
    | 'severity'
    | 'evidence'
    | 'cloud'
    | 'status'
    | 'lastComputedAt'
    | 'resolvedAt'
    | 'severityOverride'
    | 'userStatus'
    | 'categories'
    | 'metadata'
  >
> & { readonly id: number };

export interface NewRiskEvent {
  readonly ts: string;
  /** `open`, `resolve`, `reopen`, `update` (instances); `type-update` (types). */
  readonly op: string;
  /** `system` (evaluation) or `user` (an API call). */
  readonly src: string;
  /** The asset for system events, the user id for user events. */
  readonly srcId: string;
  /** The instance, or null for type events; `riskIdentity` names an instance inserted in the same write. */
  readonly riskId: number | null;
  readonly riskIdentity?: string;
  readonly riskType: string;
  readonly reason: string;
  readonly delta: Readonly<Record<string, unknown>>;
}

/** Ids ascend in commit order within a workspace and are never reused. */
export interface RiskEvent extends Omit<NewRiskEvent, 'riskIdentity'> {
  readonly id: number;
  readonly workspaceId: string;
}

/** A workspace's choices for one risk type; null keeps the catalogue's value. */
export interface RiskTypeSetting {
  readonly type: string;
  readonly enabled: boolean | null;
  readonly severity: Exclude<RiskSeverity, 'accepted'> | null;
  readonly categories: readonly string[] | null;
  readonly config: string | null;
  readonly lastDisableReason: string | null;
  readonly lastSeverityChangeReason: string | null;
  readonly updatedAt: string;
}
