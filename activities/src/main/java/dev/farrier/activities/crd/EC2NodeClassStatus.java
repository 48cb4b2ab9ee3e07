package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * {@code status} of an EC2NodeClass: what its selector terms resolve to now. As a patch
 * ({@code Cluster.patchNodeClassStatus}) a null field means "leave as is" and {@code conditions} merge by type.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record EC2NodeClassStatus(
    List<ResolvedAmi> amis,
    List<ResolvedSubnet> subnets,
    List<ResolvedSecurityGroup> securityGroups,
    String instanceProfile,
    List<ResolvedCapacityReservation> capacityReservations,
    List<Condition> conditions) {
  /** A status (or patch) that says nothing of capacity reservations. */
  public EC2NodeClassStatus(List<ResolvedAmi> amis, List<ResolvedSubnet> subnets, List<ResolvedSecurityGroup> securityGroups,
      String instanceProfile, List<Condition> conditions) {
    this(amis, subnets, securityGroups, instanceProfile, null, conditions);
  }

  public static final String READY = "Ready";
  public static final String AMIS_READY = "AMIsReady";
  public static final String SUBNETS_READY = "SubnetsReady";
  public static final String SECURITY_GROUPS_READY = "SecurityGroupsReady";
  public static final String INSTANCE_PROFILE_READY = "InstanceProfileReady";
  /** Karpenter's condition for a spec the API server admitted but the controller cannot use. */
  public static final String VALIDATION_SUCCEEDED = "ValidationSucceeded";
  /** Karpenter's condition for the capacityReservationSelectorTerms (True once they are resolved, also when there are none). */
  public static final String CAPACITY_RESERVATIONS_READY = "CapacityReservationsReady";

  public List<ResolvedAmi> amisOrEmpty() {
    return amis == null ? List.of() : amis;
  }

  public List<ResolvedCapacityReservation> capacityReservationsOrEmpty() {
    return capacityReservations == null ? List.of() : capacityReservations;
  }

  public List<Condition> conditionsOrEmpty() {
    return conditions == null ? List.of() : conditions;
  }
}
