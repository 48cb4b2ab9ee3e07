package dev.farrier.activities.kube;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.List;

/** {@link PlaceholderWorkloads} on the fabric8 client: every call goes to the API server. */
public final class Fabric8PlaceholderWorkloads implements PlaceholderWorkloads {
  /** The field manager of Farrier's server-side applies. */
  static final String FIELD_MANAGER = "farrier";

  private final KubernetesClient client;

  public Fabric8PlaceholderWorkloads(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public List<Deployment> listPlaceholderDeployments(String namespace, String label) {
    return client.apps().deployments().inNamespace(namespace).withLabel(label).list().getItems();
  }

  @Override
  public Deployment getDeployment(String namespace, String name) {
    return client.apps().deployments().inNamespace(namespace).withName(name).get();
  }

  @Override
  public void applyDeployment(Deployment deployment) {
    client.apps().deployments().inNamespace(deployment.getMetadata().getNamespace()).resource(deployment)
        .fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
  }

  @Override
  public void deleteDeployment(String namespace, String name) {
    client.apps().deployments().inNamespace(namespace).withName(name).withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
  }

  @Override
  public PriorityClass ensurePriorityClass(PriorityClass priorityClass) {
    var named = client.scheduling().v1().priorityClasses().withName(priorityClass.getMetadata().getName());
    PriorityClass stored = named.get();
    if (stored != null) {
      return stored;
    }
    try {
      return client.scheduling().v1().priorityClasses().resource(priorityClass).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
      return named.get();
    }
  }
}
