package dev.farrier.planner;

import dev.farrier.planner.ClaimConditions.StatusCondition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Decides, from the same {@link DisruptionSnapshot} as the plan, the {@code Drifted} and {@code Expired} conditions of
 * every NodeClaim, so that {@code kubectl get nodeclaims} says why a node is (about to be) replaced. The planning
 * activity writes only what differs from the stored status.
 *
 * <ul>
 *   <li>{@code Drifted}: True while drifted, with Karpenter's reason for the first drift in its order
 *       ({@code NodePoolDrifted}, {@code RequirementsDrifted}, {@code NodeClassDrift}, {@code AMIDrift},
 *       {@code SecurityGroupDrift}, {@code SubnetDrift}) and the {@link DriftCheck} detail as message; removed when not
 *       drifted, as Karpenter v1 removes it (never False); left as it is when something could not be compared (image
 *       unknown, node class unknown or resolving no images, subnets or security groups), as Karpenter leaves it when
 *       its drift check fails.</li>
 *   <li>{@code Expired}: True with reason {@code Expired} once {@code expireAfter} has passed since creation, removed
 *       otherwise (a longer expireAfter or {@code Never} takes it away again).</li>
 *   <li>{@code Consolidatable}: True once the NodePool's {@code consolidateAfter} has passed since the last pod event
 *       (as Karpenter v1's); while it has not, where Karpenter removes it, Farrier sets it False with reason
 *       {@code ConsolidateAfterNotReached} and the time it will be, so {@code kubectl describe nodeclaim} answers "why not
 *       yet". Removed before the claim is initialized and when {@code consolidateAfter} is {@code Never}.</li>
 * </ul>
 * Unlike the plan, these do not depend on budgets, do-not-disrupt, initialization or a replacement under way: a
 * condition says what the claim is, the plan what is done about it now. A claim not launched yet has neither
 * condition (as Karpenter clears Drifted before launch); a claim being deleted, or whose NodePool is unknown, is left
 * as it is.
 */
public final class DisruptionConditions {
  static final String REASON_EXPIRED = "Expired";

  private DisruptionConditions() {}

  public static List<ClaimConditions> of(DisruptionSnapshot snapshot) {
    Map<String, NodePoolView> pools = snapshot.nodePools().stream()
        .collect(Collectors.toMap(NodePoolView::name, Function.identity(), (a, b) -> a));
    Map<String, List<String>> images = ResolvedImages.index(snapshot.resolvedImages());
    List<ClaimConditions> result = new ArrayList<>();
    for (NodeClaimView claim : snapshot.nodeClaims()) {
      NodePoolView pool = pools.get(claim.nodePool());
      if (claim.deleting() || pool == null) {
        continue;
      }
      if (claim.instanceId() == null) {
        result.add(new ClaimConditions(claim.name(), List.of(),
            List.of(ClaimConditions.DRIFTED, ClaimConditions.EXPIRED, ClaimConditions.CONSOLIDATABLE)));
        continue;
      }
      List<StatusCondition> set = new ArrayList<>();
      List<String> removed = new ArrayList<>();
      DriftCheck drift = DriftCheck.of(claim, pool, images);
      if (drift.drifted()) {
        set.add(new StatusCondition(ClaimConditions.DRIFTED, drift.reason(), drift.detail()));
      } else if (drift.conclusive()) {
        removed.add(ClaimConditions.DRIFTED);
      }
      String expiry = Expiry.of(claim, pool, snapshot.nowMillis());
      if (expiry != null) {
        set.add(new StatusCondition(ClaimConditions.EXPIRED, REASON_EXPIRED, expiry));
      } else {
        removed.add(ClaimConditions.EXPIRED);
      }
      ConsolidationTiming timing = ConsolidationTiming.of(claim, pool, snapshot.nowMillis());
      if (ConsolidationTiming.NOT_INITIALIZED.equals(timing.reason()) || ConsolidationTiming.DISABLED.equals(timing.reason())) {
        removed.add(ClaimConditions.CONSOLIDATABLE);
      } else {
        set.add(new StatusCondition(ClaimConditions.CONSOLIDATABLE, timing.consolidatable(), timing.reason(), timing.detail()));
      }
      result.add(new ClaimConditions(claim.name(), set, removed));
    }
    return result;
  }
}
