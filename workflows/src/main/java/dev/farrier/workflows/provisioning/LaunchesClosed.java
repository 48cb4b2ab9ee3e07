package dev.farrier.workflows.provisioning;

import dev.farrier.model.PodRef;
import java.util.List;

/**
 * Payload of {@link ProvisioningWorkflow#LAUNCHES_CLOSED_SIGNAL}: the pods planned onto claims of batch {@code batchId}
 * whose launches closed (initialized, or failed) while other launches of the batch still run.
 */
public record LaunchesClosed(String batchId, List<PodRef> pods) {
  public LaunchesClosed {
    pods = pods == null ? List.of() : List.copyOf(pods);
  }
}
