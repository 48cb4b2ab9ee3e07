package dev.farrier.activities;

import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.workflows.model.PodRef;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The pods a NodeClaim was created for, kept on it as an annotation of their UIDs. Its room is theirs until the claim
 * has been Initialized for {@link ProvisioningSnapshots#PROMISE_WINDOW}: the kube-scheduler binds them over the next
 * seconds (several on a loaded control plane), and a batch planned meanwhile must not launch a second node for the
 * same pods because they still look pending.
 */
final class PromisedPods {
  static final String ANNOTATION = "farrier.dev/planned-pods";
  /** A batch takes at most 1,000 pods; UIDs are 36 characters: well under the 256 KiB Kubernetes allows annotations. */
  static final int MAX = 1_000;

  private PromisedPods() {}

  static String format(List<PodRef> pods) {
    return pods.stream().map(PodRef::uid).filter(uid -> uid != null && !uid.isBlank()).limit(MAX)
        .collect(Collectors.joining(","));
  }

  /**
   * The UIDs of the pods the claims not being deleted still hold room for ({@link ProvisioningSnapshots#holdsPromise}).
   */
  static Set<String> of(List<NodeClaim> claims, Instant now) {
    Set<String> uids = new HashSet<>();
    for (NodeClaim claim : claims) {
      Map<String, String> annotations = claim.getMetadata().getAnnotations();
      String promised = annotations == null ? null : annotations.get(ANNOTATION);
      if (promised == null || promised.isBlank() || claim.getMetadata().getDeletionTimestamp() != null) {
        continue;
      }
      if (ProvisioningSnapshots.holdsPromise(claim, now)) {
        uids.addAll(List.of(promised.split(",")));
      }
    }
    return uids;
  }
}
