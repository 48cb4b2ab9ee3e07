package dev.farrier.activities.kube;

import java.util.Optional;

/**
 * Every Kubernetes read and write Farrier makes, and nothing else: the sum of the ports sized to their users
 * ({@link ClusterReader}, {@link StatusWriter}, {@link NodeClaimStore}, {@link NodeWriter}, {@link PodEvictor},
 * {@link EventSink}, {@link RolloutWriter}, {@link WorkloadSurges}). A class takes the narrowest ports it needs, so its rules can be unit-tested with a small fake;
 * {@link Fabric8Cluster} implements them all.
 *
 * <p>Contracts every implementation keeps:
 * <ul>
 *   <li>Every write is idempotent, so an activity retried after a lost response converges instead of doubling
 *       up: creates are create-if-absent, changes are patches toward a target state, and writes that would not
 *       change anything are not sent. Methods that change something return whether they did.</li>
 *   <li>List-valued fields (finalizers, taints, conditions) are changed read-modify-write with the read
 *       resourceVersion as a precondition and retried on conflict, so a concurrent writer's entry is never lost.</li>
 *   <li>Removals and deletes treat a missing object as done. Writes that need their object throw
 *       {@link ObjectNotFoundException}. Any other API failure surfaces as the client's runtime exception
 *       (retryable).</li>
 *   <li>Reads of a missing object return {@link Optional#empty()}.</li>
 * </ul>
 */
public interface Cluster extends ClusterReader, StatusWriter, NodeClaimStore, NodeWriter, PodEvictor, EventSink, RolloutWriter, WorkloadSurges {
}
