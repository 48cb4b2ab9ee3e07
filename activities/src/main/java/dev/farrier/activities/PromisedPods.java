package dev.farrier.activities;

import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.workflows.model.PodRef;
import dev.farrier.workflows.model.Resources;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The pods a NodeClaim was created for, kept on it as an annotation of their UIDs. Its room is theirs until the claim
 * has been Initialized for {@link ProvisioningSnapshots#PROMISE_WINDOW}, as long as its Node has room left for them:
 * the kube-scheduler binds them over the next seconds (several on a loaded control plane), and a batch planned
 * meanwhile must not launch a second node for the same pods because they still look pending.
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
   * The UIDs, among the {@code pending} pods (UID to requests, counted as one pod), that the claims not being deleted
   * still hold room for. A claim not yet Initialized holds all of its pods. One Initialized less than
   * {@link ProvisioningSnapshots#PROMISE_WINDOW} ago holds those its Node still has room for ({@code free}: the room
   * the kube-scheduler sees, by node name; null when the Node is not known, which holds them all), taken in the
   * order they were planned: the kube-scheduler may fill a new node with other pods, and a pod that no longer fits
   * there must be planned again now, not after the window.
   */
  static Set<String> held(List<NodeClaim> claims, Map<String, Resources> pending, Function<String, Resources> free, Instant now) {
    Set<String> uids = new HashSet<>();
    for (NodeClaim claim : claims) {
      Map<String, String> annotations = claim.getMetadata().getAnnotations();
      String promised = annotations == null ? null : annotations.get(ANNOTATION);
      if (promised == null || promised.isBlank() || claim.getMetadata().getDeletionTimestamp() != null
          || !ProvisioningSnapshots.holdsPromise(claim, now)) {
        continue;
      }
      String nodeName = claim.getStatus() == null ? null : claim.getStatus().nodeName();
      Resources room = ProvisioningSnapshots.initialized(claim) && nodeName != null ? free.apply(nodeName) : null;
      for (String uid : promised.split(",")) {
        Resources requests = pending.get(uid);
        if (requests == null) {
          continue;
        }
        if (room == null) {
          uids.add(uid);
        } else if (requests.fitsIn(room)) {
          uids.add(uid);
          room = room.minus(requests);
        }
      }
    }
    return uids;
  }
}
