package dev.farrier.activities.kube;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import java.util.List;

/**
 * Writes the headroom's placeholder Deployments and their PriorityClass (docs/headroom.md). Each call is idempotent:
 * the objects are named after their NodePool, applied whole, and deleting an absent one is done.
 */
public interface PlaceholderWorkloads {
  /** The Deployments in {@code namespace} labelled with the NodePool they keep headroom in. */
  List<Deployment> listPlaceholderDeployments(String namespace, String label);

  /** The Deployment of that name, whoever made it; null when there is none. */
  Deployment getDeployment(String namespace, String name);

  /** Creates or replaces the Deployment (server-side apply by Farrier's field manager, conflicts forced): only Farrier's own. */
  void applyDeployment(Deployment deployment);

  /** Deletes the Deployment and, in the background, its pods; an absent one is fine. */
  void deleteDeployment(String namespace, String name);

  /**
   * Creates the PriorityClass unless one of its name exists (its value and policy are immutable: left as they are), and
   * returns the one stored, for the caller to check.
   */
  PriorityClass ensurePriorityClass(PriorityClass priorityClass);
}
