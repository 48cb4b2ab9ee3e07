package dev.farrier.activities.provisioning;

import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.model.PlannedPods;
import dev.farrier.planner.PodSpecView;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The pods a NodeClaim was created for, kept on it as an annotation of their UIDs ({@link PlannedPods}). Its room is
 * theirs until the claim has been Initialized for {@link ProvisioningSnapshots#PROMISE_WINDOW}, as long as its Node has
 * room left for them: the kube-scheduler binds them over the next seconds (several on a loaded control plane), and a
 * batch planned meanwhile must not launch a second node for the same pods because they still look pending.
 */
final class PromisedPods {
  private PromisedPods() {}

  /**
   * The UIDs, among the {@code pending} pods (by UID), that the claims not being deleted still hold room for. A claim
   * not yet Initialized holds all of its pods. One Initialized less than {@link ProvisioningSnapshots#PROMISE_WINDOW}
   * ago holds those its Node still has room for ({@code rooms}: what the kube-scheduler sees on each node, by node
   * name, a fresh one each call; null when the Node is not known, which holds them all), taken in the order they were
   * planned: the kube-scheduler may fill a new node with other pods, or with a pod whose required hostname
   * anti-affinity keeps a planned one off it, and a pod that can no longer go there must be planned again now, not
   * after the window.
   */
  static Set<String> held(List<NodeClaim> claims, Map<String, PodSpecView> pending, Function<String, NodeRoom> rooms, Instant now) {
    Set<String> uids = new HashSet<>();
    for (NodeClaim claim : claims) {
      List<String> promised = PlannedPods.uids(claim.getMetadata().getAnnotations());
      if (promised.isEmpty() || claim.getMetadata().getDeletionTimestamp() != null || !ProvisioningSnapshots.holdsPromise(claim, now)) {
        continue;
      }
      String nodeName = claim.getStatus() == null ? null : claim.getStatus().nodeName();
      NodeRoom room = ProvisioningSnapshots.initialized(claim) && nodeName != null ? rooms.apply(nodeName) : null;
      for (String uid : promised) {
        PodSpecView pod = pending.get(uid);
        if (pod != null && (room == null || room.take(pod))) {
          uids.add(uid);
        }
      }
    }
    return uids;
  }
}
