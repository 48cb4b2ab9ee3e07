package dev.farrier.workflows.provisioning;

import dev.farrier.model.LaunchedInstance;
import dev.farrier.model.UnschedulablePod;
import java.util.List;

/** What a provisioning batch achieved: nodes launched, claims that failed (name: reason), pods nobody can take. */
public record ProvisioningResult(List<LaunchedInstance> launched, List<String> failed, List<UnschedulablePod> unschedulable) {
  public ProvisioningResult {
    launched = List.copyOf(launched);
    failed = List.copyOf(failed);
    unschedulable = List.copyOf(unschedulable);
  }
}
