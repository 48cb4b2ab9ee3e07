package dev.farrier.activities.status;

import dev.farrier.activities.cloud.CapacityReservationTerm;
import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.InstanceProfileRequest;
import dev.farrier.activities.cloud.RoleNotFoundException;
import dev.farrier.activities.cloud.SecurityGroupTerm;
import dev.farrier.activities.cloud.SubnetTerm;
import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.EC2NodeClassSpec;
import dev.farrier.activities.crd.EC2NodeClassStatus;
import dev.farrier.activities.crd.RequirementWithMinValues;
import dev.farrier.activities.crd.ResolvedAmi;
import dev.farrier.activities.crd.ResolvedCapacityReservation;
import dev.farrier.activities.crd.ResolvedSecurityGroup;
import dev.farrier.activities.crd.ResolvedSubnet;
import dev.farrier.activities.nodeclass.NodeClassImages;
import dev.farrier.activities.nodeclass.NodeClassReservations;
import dev.farrier.activities.provisioning.NodePoolValidation;
import dev.farrier.model.WellKnown;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an EC2NodeClass resolves to now: AMIs, subnets, security groups, the instance profile and the capacity
 * reservations, each with its own condition (AMIsReady, SubnetsReady, SecurityGroupsReady, InstanceProfileReady,
 * CapacityReservationsReady: True also when no reservation is selected, as Karpenter's), ValidationSucceeded (the kubelet
 * amounts {@link NodePoolValidation#nodeClassProblems} refuses), and Ready over all six. Each part
 * is resolved on its own, so a cloud error in one leaves the others' results standing:
 * <ul>
 *   <li>nothing matched: the part's condition is False and its message names the selector terms that matched
 *       nothing; its status field is written empty;</li>
 *   <li>a permanent cloud error (invalid selector, missing role or profile, a profile Farrier does not own): False
 *       with the error's message; the field is left as it was;</li>
 *   <li>a retryable one (throttled): the part keeps its previous condition and field (Unknown if it never had one),
 *       so a throttled pass neither flips Ready nor records an Event.</li>
 * </ul>
 */
final class NodeClassResolution {
  private static final Logger log = LoggerFactory.getLogger(NodeClassResolution.class);

  record Result(EC2NodeClassStatus status, Condition ready) {}

  private record Part<T>(T value, Condition condition) {}

  private NodeClassResolution() {}

  static Result resolve(CloudProvider cloud, String clusterName, EC2NodeClass nodeClass, Instant now) {
    String name = nodeClass.getMetadata().getName();
    EC2NodeClassSpec spec = nodeClass.getSpec();
    List<Condition> previous = nodeClass.getStatus() == null ? List.of() : nodeClass.getStatus().conditionsOrEmpty();

    var terms = NodeClassImages.terms(nodeClass);
    Part<List<ResolvedAmi>> amis = part(name, EC2NodeClassStatus.AMIS_READY, "AMIs", previous, now,
        () -> terms.isEmpty() ? List.of() : cloud.resolveImages(terms).stream().flatMap(i -> amis(i).stream()).toList(),
        List::isEmpty, v -> "amiSelectorTerms matched no image: " + terms);

    List<SubnetTerm> subnetTerms = spec.subnetSelectorTerms() == null ? List.of()
        : spec.subnetSelectorTerms().stream().map(t -> new SubnetTerm(t.id(), t.tags())).toList();
    Part<List<ResolvedSubnet>> subnets = part(name, EC2NodeClassStatus.SUBNETS_READY, "Subnets", previous, now,
        () -> subnetTerms.isEmpty() ? List.of() : cloud.resolveSubnets(subnetTerms).stream()
            .map(s -> new ResolvedSubnet(s.id(), s.zone(), s.zoneId())).toList(),
        List::isEmpty, v -> "subnetSelectorTerms matched no subnet: " + subnetTerms);

    List<SecurityGroupTerm> groupTerms = spec.securityGroupSelectorTerms() == null ? List.of()
        : spec.securityGroupSelectorTerms().stream().map(t -> new SecurityGroupTerm(t.id(), t.name(), t.tags())).toList();
    Part<List<ResolvedSecurityGroup>> groups = part(name, EC2NodeClassStatus.SECURITY_GROUPS_READY, "SecurityGroups", previous, now,
        () -> groupTerms.isEmpty() ? List.of() : cloud.resolveSecurityGroups(groupTerms).stream()
            .map(g -> new ResolvedSecurityGroup(g.id(), g.name())).toList(),
        List::isEmpty, v -> "securityGroupSelectorTerms matched no security group: " + groupTerms);

    Part<String> profile = part(name, EC2NodeClassStatus.INSTANCE_PROFILE_READY, "InstanceProfile", previous, now,
        () -> cloud.resolveInstanceProfile(new InstanceProfileRequest(clusterName, name, spec.role(), spec.instanceProfile())),
        p -> p == null || p.isBlank(), v -> "no instance profile");

    List<CapacityReservationTerm> reservationTerms = NodeClassReservations.terms(nodeClass);
    // As Karpenter: True also when nothing is selected (a class may name reservations that come later, or none).
    Part<List<ResolvedCapacityReservation>> reservations = part(name, EC2NodeClassStatus.CAPACITY_RESERVATIONS_READY,
        "CapacityReservations", previous, now,
        () -> reservationTerms.isEmpty() ? List.of() : cloud.resolveCapacityReservations(reservationTerms).stream()
            .map(NodeClassReservations::status).toList(),
        v -> false, v -> "");

    List<String> problems = NodePoolValidation.nodeClassProblems(nodeClass);
    Condition validation = problems.isEmpty()
        ? Condition.of(EC2NodeClassStatus.VALIDATION_SUCCEEDED, Condition.TRUE, EC2NodeClassStatus.VALIDATION_SUCCEEDED, "", now)
        : Condition.of(EC2NodeClassStatus.VALIDATION_SUCCEEDED, Condition.FALSE, "ValidationFailed", String.join("; ", problems), now);
    List<Condition> parts = List.of(amis.condition(), subnets.condition(), groups.condition(), profile.condition(),
        reservations.condition(), validation);
    Condition ready = ready(parts, now);
    List<Condition> conditions = new ArrayList<>(parts);
    conditions.add(ready);
    return new Result(new EC2NodeClassStatus(amis.value(), subnets.value(), groups.value(), profile.value(),
        reservations.value(), conditions), ready);
  }

  /**
   * The image as {@code status.amis} lists it: one entry per kind of instance type it is for (an alias's
   * accelerated images say which), each with its architecture and that kind's requirements, as Karpenter writes them.
   */
  private static List<ResolvedAmi> amis(Image image) {
    var arch = new RequirementWithMinValues(WellKnown.ARCH_LABEL, "In", List.of(image.kubernetesArch()), null);
    if (image.variants().isEmpty()) {
      return List.of(new ResolvedAmi(image.id(), image.name(), null, List.of(arch)));
    }
    return image.variants().stream().map(v -> {
      List<RequirementWithMinValues> requirements = new ArrayList<>(List.of(arch));
      v.requirements().forEach(r -> requirements.add(RequirementWithMinValues.from(r)));
      return new ResolvedAmi(image.id(), image.name(), null, requirements);
    }).toList();
  }

  /**
   * Resolves one part. {@code empty} says the result resolves nothing (False, reason {@code <prefix>NotFound},
   * {@code emptyMessage}); a permanent cloud error is False with reason {@code <prefix>ResolutionFailed} ({@code RoleNotFound}
   * for a {@code spec.role} that does not exist); a
   * retryable one keeps the previous condition and leaves the field (null) as it is.
   */
  private static <T> Part<T> part(String nodeClass, String type, String prefix, List<Condition> previous, Instant now,
      Supplier<T> resolve, Predicate<T> empty, Function<T, String> emptyMessage) {
    try {
      T value = resolve.get();
      if (empty.test(value)) {
        return new Part<>(value, Condition.of(type, Condition.FALSE, prefix + "NotFound", emptyMessage.apply(value), now));
      }
      return new Part<>(value, Condition.of(type, Condition.TRUE, type, "", now));
    } catch (CloudProviderException e) {
      if (e.kind().retryable) {
        log.warn("node class part not resolved, keeping the last result nodeclass={} part={} kind={} message={}",
            nodeClass, type, e.kind(), e.getMessage());
        Condition kept = Conditions.find(previous, type)
            .orElse(Condition.of(type, Condition.UNKNOWN, prefix + "Unresolved", e.getMessage(), now));
        return new Part<>(null, kept);
      }
      String reason = e instanceof RoleNotFoundException ? RoleNotFoundException.REASON : prefix + "ResolutionFailed";
      return new Part<>(null, Condition.of(type, Condition.FALSE, reason, e.getMessage(), now));
    }
  }

  /** True when every part is; otherwise the first False part (else the first Unknown) gives reason and message. */
  private static Condition ready(List<Condition> parts, Instant now) {
    var notTrue = parts.stream().filter(c -> !c.isTrue()).toList();
    if (notTrue.isEmpty()) {
      return Condition.of(EC2NodeClassStatus.READY, Condition.TRUE, "Ready", "", now);
    }
    Condition cause = notTrue.stream().filter(c -> Condition.FALSE.equals(c.status())).findFirst().orElse(notTrue.getFirst());
    String message = String.join("; ", notTrue.stream().map(c -> c.type() + "=" + c.status() + ": " + c.message()).toList());
    return Condition.of(EC2NodeClassStatus.READY, cause.status(), cause.reason(), message, now);
  }
}
