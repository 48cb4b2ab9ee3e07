package dev.farrier.workflows.reconciler;

import dev.farrier.model.PodRef;
import java.util.List;

/** Signal payload: pods the informer saw unschedulable. */
public record PendingPods(List<PodRef> pods) {
  public PendingPods {
    pods = List.copyOf(pods);
  }
}
