package dev.farrier.activities.cloud.simulated;

import dev.farrier.model.Taint;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * An instance as the state file keeps it. Only timestamps are stored; the EC2 state is derived from them and the
 * clock ({@link #state}), so a process that restarts, or another process, computes the same state.
 *
 * @param terminateRequested when delete was first called; null while the instance lives
 * @param foreign            registered by a test as "not launched by Farrier": it has no node bootstrap
 * @param reclaimAt          when a spot interruption takes the instance away (null: never interrupted); from then
 *                           on it is shutting down, then terminated, as if terminate had been called
 * @param subnetId           the subnet it was launched into (null in state files from before it was kept)
 * @param securityGroupIds   the security groups it was launched with (empty likewise)
 * @param instanceStorePolicy its EC2NodeClass's {@code instanceStorePolicy} (RAID0 or null)
 * @param capacityReservationId the capacity reservation it was launched into (capacity type reserved), else null
 */
record StoredInstance(
    String id,
    String instanceType,
    String zone,
    String capacityType,
    String imageId,
    String privateIp,
    String privateDnsName,
    double pricePerHour,
    Map<String, String> tags,
    Map<String, String> nodeLabels,
    List<Taint> nodeTaints,
    Instant launchTime,
    Instant terminateRequested,
    boolean foreign,
    Instant reclaimAt,
    String subnetId,
    List<String> securityGroupIds,
    String instanceStorePolicy,
    String capacityReservationId) {
  static final String PENDING = "pending";
  static final String RUNNING = "running";
  static final String SHUTTING_DOWN = "shutting-down";
  static final String TERMINATED = "terminated";

  StoredInstance {
    tags = tags == null ? Map.of() : Map.copyOf(tags);
    nodeLabels = nodeLabels == null ? Map.of() : Map.copyOf(nodeLabels);
    nodeTaints = nodeTaints == null ? List.of() : List.copyOf(nodeTaints);
    securityGroupIds = securityGroupIds == null ? List.of() : List.copyOf(securityGroupIds);
  }

  String state(Instant now, Duration bootDelay, Duration terminateDelay) {
    Instant end = goingAwayAt();
    if (end != null && !now.isBefore(end)) {
      return now.isBefore(end.plus(terminateDelay)) ? SHUTTING_DOWN : TERMINATED;
    }
    return now.isBefore(launchTime.plus(bootDelay)) ? PENDING : RUNNING;
  }

  /** When terminate was called or the spot interruption reclaims it, whichever comes first; null while neither. */
  Instant goingAwayAt() {
    if (terminateRequested == null || reclaimAt == null) {
      return terminateRequested != null ? terminateRequested : reclaimAt;
    }
    return terminateRequested.isBefore(reclaimAt) ? terminateRequested : reclaimAt;
  }

  StoredInstance terminating(Instant now) {
    return new StoredInstance(id, instanceType, zone, capacityType, imageId, privateIp, privateDnsName, pricePerHour,
        tags, nodeLabels, nodeTaints, launchTime, now, foreign, reclaimAt, subnetId, securityGroupIds, instanceStorePolicy, capacityReservationId);
  }

  StoredInstance interrupted(Instant reclaim) {
    return new StoredInstance(id, instanceType, zone, capacityType, imageId, privateIp, privateDnsName, pricePerHour,
        tags, nodeLabels, nodeTaints, launchTime, terminateRequested, foreign, reclaim, subnetId, securityGroupIds, instanceStorePolicy, capacityReservationId);
  }

  String providerId() {
    return "aws:///" + zone + "/" + id;
  }
}
