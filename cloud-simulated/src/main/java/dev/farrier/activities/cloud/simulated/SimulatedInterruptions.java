package dev.farrier.activities.cloud.simulated;

import dev.farrier.activities.interruption.EventBridgeEvents;
import dev.farrier.activities.interruption.SqsInterruptionQueue;
import java.time.Duration;
import java.time.Instant;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The simulated cloud's EventBridge: interrupts a spot instance and posts the real {@code EC2 Spot Instance
 * Interruption Warning}, or ends a Capacity Block and posts an {@code EC2 Capacity Reservation Instance Interruption
 * Warning} per instance, to an SQS queue (moto in the sandbox and the tests), as the EventBridge rule of a real
 * installation does. The instance is reclaimed {@link SimulatedCloud#SPOT_INTERRUPTION_NOTICE} later on the cloud's clock.
 */
public final class SimulatedInterruptions {
  private final SimulatedCloud cloud;
  private final SqsClient sqs;
  private final SqsInterruptionQueue queue;

  public SimulatedInterruptions(SimulatedCloud cloud, SqsClient sqs, String queue) {
    this.cloud = cloud;
    this.sqs = sqs;
    this.queue = new SqsInterruptionQueue(sqs, queue);
  }

  /** Interrupts with the two-minute notice of EC2. */
  public SimulatedCloud.SpotInterruption interrupt(String instanceId) {
    return interrupt(instanceId, SimulatedCloud.SPOT_INTERRUPTION_NOTICE);
  }

  public SimulatedCloud.SpotInterruption interrupt(String instanceId, Duration notice) {
    var interruption = cloud.interruptSpot(instanceId, notice);
    String body = EventBridgeEvents.spotInterruptionWarning(instanceId, cloud.config().region(),
        interruption.instance().zone(), interruption.warnedAt());
    sqs.sendMessage(r -> r.queueUrl(queue.url()).messageBody(body));
    return interruption;
  }

  /**
   * Posts an {@code EC2 Instance Rebalance Recommendation} for a running instance, as EC2 does when its spot capacity
   * is at elevated risk of interruption; the instance itself runs on. Refuses an instance the cloud does not know. EC2's
   * own event, so no fault injected into the EC2 API delays or refuses it.
   */
  public void recommendRebalance(String instanceId) {
    var instance = cloud.instances().stream().map(SimulatedInstance::instance).filter(i -> i.id().equals(instanceId)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no instance " + instanceId));
    String body = EventBridgeEvents.rebalanceRecommendation(instanceId, cloud.config().region(), instance.zone(), Instant.now());
    sqs.sendMessage(r -> r.queueUrl(queue.url()).messageBody(body));
  }

  /**
   * Ends Capacity Block {@code reservationId} ({@link SimulatedCloud#expireCapacityBlock}) and posts an
   * {@code EC2 Capacity Reservation Instance Interruption Warning} for each instance it reclaims, as EC2 does ahead of
   * a block's end.
   */
  public SimulatedCloud.CapacityBlockEnd expireCapacityBlock(String reservationId, Duration notice) {
    var end = cloud.expireCapacityBlock(reservationId, notice);
    for (var instance : end.instances()) {
      String body = EventBridgeEvents.capacityReservationInterruptionWarning(instance.id(), cloud.config().region(), instance.zone(),
          end.warnedAt());
      sqs.sendMessage(r -> r.queueUrl(queue.url()).messageBody(body));
    }
    return end;
  }
}
