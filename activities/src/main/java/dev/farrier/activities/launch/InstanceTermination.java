package dev.farrier.activities.launch;

import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.temporal.Failures;
import dev.farrier.activities.temporal.Polling;
import dev.farrier.model.WellKnown;
import dev.farrier.workflows.activities.InstanceState;
import dev.farrier.workflows.activities.TerminateInstanceRequest;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cloud side of a NodeClaim's end: terminating its instance (found by its tag when the launch's response was lost),
 * waiting for it to be gone, and its state. Needs only the {@link CloudProvider}; the activity records the Events.
 */
final class InstanceTermination {
  private static final Logger log = LoggerFactory.getLogger(InstanceTermination.class);

  private final CloudProvider cloud;

  InstanceTermination(CloudProvider cloud) {
    this.cloud = cloud;
  }

  InstanceState terminate(TerminateInstanceRequest request) {
    String instanceId = request.instanceId() != null ? request.instanceId() : cloud.list(request.cluster()).stream()
        .filter(i -> request.nodeClaim().equals(i.tags().get(WellKnown.TAG_NODECLAIM))).map(Instance::id).findFirst().orElse(null);
    if (instanceId == null) {
      return new InstanceState(null, InstanceState.NOT_FOUND);
    }
    try {
      var instance = cloud.delete(request.cluster(), request.nodeClaim(), instanceId);
      log.atInfo().setMessage("instance terminating").addKeyValue("nodeclaim", request.nodeClaim())
          .addKeyValue("instance", instanceId).addKeyValue("state", instance.state()).log();
      return new InstanceState(instance.id(), instance.state());
    } catch (CloudProviderException e) {
      throw Failures.of(e);
    }
  }

  InstanceState awaitTerminated(TerminateInstanceRequest request) {
    if (request.instanceId() == null) {
      return new InstanceState(null, InstanceState.NOT_FOUND);
    }
    return Polling.until(() -> {
      var state = state(request);
      return state.gone() ? Optional.of(state) : Optional.empty();
    }, () -> "waiting for instance " + request.instanceId() + " to terminate");
  }

  InstanceState state(TerminateInstanceRequest request) {
    if (request.instanceId() == null) {
      return new InstanceState(null, InstanceState.NOT_FOUND);
    }
    Optional<Instance> instance = cloud.get(request.instanceId());
    return instance.map(i -> new InstanceState(i.id(), i.state())).orElse(new InstanceState(request.instanceId(), InstanceState.NOT_FOUND));
  }
}
