/**
 * Karpenter v1's custom resources as Farrier reads and writes them: fabric8 {@code CustomResource} classes
 * ({@link dev.farrier.activities.crd.NodePool}, {@link dev.farrier.activities.crd.NodeClaim},
 * {@link dev.farrier.activities.crd.EC2NodeClass}) over immutable Jackson records for spec and status.
 *
 * <p>Every record ignores unknown fields (so a newer Karpenter field never breaks a read) and omits nulls (so a
 * read-then-write keeps what the user wrote: an absent field stays absent, it does not become an empty list).
 * A null list or map therefore means "not set"; callers that only read use the {@code ...OrEmpty()} helpers.
 * Timestamps are RFC 3339 strings, as on the wire. The schemas are in {@code deploy/crds/}.
 */
package dev.farrier.activities.crd;
