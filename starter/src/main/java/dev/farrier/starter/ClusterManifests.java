package dev.farrier.starter;

import dev.farrier.migrate.Source;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code migrate --from-cluster}: the old Karpenter objects a cluster still serves, as manifests (name, labels,
 * annotations and spec; no status or server-set metadata), read through the user's kubeconfig. A version the
 * cluster does not serve is skipped.
 */
final class ClusterManifests {
  private ClusterManifests() {}

  /** The old kinds, in the order the output lists them (classes before the NodePools that name them). */
  static final List<ResourceDefinitionContext> OLD_KINDS = List.of(
      kind("karpenter.k8s.aws", "v1alpha1", "AWSNodeTemplate", "awsnodetemplates"),
      kind("karpenter.k8s.aws", "v1beta1", "EC2NodeClass", "ec2nodeclasses"),
      kind("karpenter.sh", "v1alpha5", "Provisioner", "provisioners"),
      kind("karpenter.sh", "v1beta1", "NodePool", "nodepools"));

  /** Named in full, so a version the cluster does not serve is a 404 rather than a failed discovery. */
  private static ResourceDefinitionContext kind(String group, String version, String kind, String plural) {
    return new ResourceDefinitionContext.Builder().withGroup(group).withVersion(version).withKind(kind).withPlural(plural)
        .withNamespaced(false).build();
  }

  static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

  static Source read(Path kubeconfig) {
    Config config;
    try {
      config = kubeconfig == null ? Config.autoConfigure(null) : Config.fromKubeconfig(Files.readString(kubeconfig));
    } catch (IOException e) {
      throw new CliException(ExitCodes.USAGE, "cannot read kubeconfig " + kubeconfig + ": " + e.getMessage());
    }
    config.setRequestRetryBackoffLimit(0);
    config.setRequestTimeout(10_000);
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
      return new Source("cluster.yaml", manifests(client));
    }
  }

  static String manifests(KubernetesClient client) {
    var out = new StringBuilder();
    for (ResourceDefinitionContext kind : OLD_KINDS) {
      List<GenericKubernetesResource> items;
      try {
        items = new ArrayList<>(client.genericKubernetesResources(kind).list().getItems());
      } catch (KubernetesClientException e) {
        if (e.getCode() == 404) {
          continue;
        }
        throw new CliException(ExitCodes.ERROR, "cannot list " + kind.getKind() + " " + kind.getGroup() + "/"
            + kind.getVersion() + " from the cluster: " + e.getMessage());
      }
      items.sort(Comparator.comparing(r -> r.getMetadata().getName()));
      for (GenericKubernetesResource item : items) {
        if (!out.isEmpty()) {
          out.append("---\n");
        }
        out.append(Serialization.asYaml(manifest(item)).replaceFirst("^---\n", ""));
      }
    }
    return out.toString();
  }

  /** The object as its author wrote it: what the server added (status, uid, versions, managed fields) removed. */
  private static Map<String, Object> manifest(GenericKubernetesResource item) {
    ObjectMeta meta = item.getMetadata();
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("name", meta.getName());
    if (meta.getLabels() != null && !meta.getLabels().isEmpty()) {
      metadata.put("labels", meta.getLabels());
    }
    if (meta.getAnnotations() != null) {
      Map<String, String> annotations = new LinkedHashMap<>(meta.getAnnotations());
      annotations.remove(LAST_APPLIED);
      if (!annotations.isEmpty()) {
        metadata.put("annotations", annotations);
      }
    }
    Map<String, Object> manifest = new LinkedHashMap<>();
    manifest.put("apiVersion", item.getApiVersion());
    manifest.put("kind", item.getKind());
    manifest.put("metadata", metadata);
    Object spec = item.getAdditionalProperties().get("spec");
    if (spec != null) {
      manifest.put("spec", spec);
    }
    return manifest;
  }
}
