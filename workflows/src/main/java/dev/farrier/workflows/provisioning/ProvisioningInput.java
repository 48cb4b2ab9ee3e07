package dev.farrier.workflows.provisioning;

import dev.farrier.model.LaunchSettings;
import dev.farrier.model.PodRef;
import java.util.List;

/** A batch of pending pods to provision for. */
public record ProvisioningInput(String cluster, String batchId, List<PodRef> pods, LaunchSettings launchSettings) {
  public ProvisioningInput {
    pods = List.copyOf(pods);
  }
}
