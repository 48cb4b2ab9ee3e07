package dev.farrier.localstack;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The worker as the chart runs it, for a sandbox that starts the worker as a local process: the container's
 * environment resolved (literal values; the downward API's pod name and namespace from the caller), which of those
 * variables name files of a mounted Secret, the command and args, the service account, and the RBAC to apply so the
 * process has exactly the chart's permissions.
 *
 * @param deployment the chart's Deployment
 * @param container its worker container
 * @param rbac the ServiceAccount (when the chart makes one), ClusterRoles, Roles and their bindings, in that order
 */
public record WorkerSettingsFromChart(Deployment deployment, Container container, List<HasMetadata> rbac) {
  private static final List<Class<? extends HasMetadata>> RBAC_KINDS = List.of(
      ServiceAccount.class, ClusterRole.class, ClusterRoleBinding.class, Role.class, RoleBinding.class);

  public WorkerSettingsFromChart {
    Objects.requireNonNull(deployment, "deployment");
    Objects.requireNonNull(container, "container");
    rbac = List.copyOf(rbac);
  }

  public static WorkerSettingsFromChart of(HelmChart.Rendered rendered) {
    Deployment deployment = rendered.one(Deployment.class);
    List<Container> containers = deployment.getSpec().getTemplate().getSpec().getContainers();
    if (containers.size() != 1) {
      throw new IllegalStateException("the chart's Deployment has " + containers.size() + " containers, expected the worker alone");
    }
    List<HasMetadata> rbac = RBAC_KINDS.stream().<HasMetadata>flatMap(kind -> rendered.all(kind).stream()).toList();
    return new WorkerSettingsFromChart(deployment, containers.getFirst(), rbac);
  }

  /**
   * The container's environment in order, as the kubelet would give it to a pod named {@code podName} in
   * {@code podNamespace}. A variable whose value the sandbox cannot know (another downward-API field, a Secret or
   * ConfigMap reference) fails loudly rather than being left out.
   */
  public Map<String, String> environment(String podName, String podNamespace) {
    Map<String, String> env = new LinkedHashMap<>();
    for (EnvVar variable : container.getEnv()) {
      env.put(variable.getName(), value(variable, podName, podNamespace));
    }
    return env;
  }

  private static String value(EnvVar variable, String podName, String podNamespace) {
    if (variable.getValueFrom() == null) {
      return Objects.requireNonNullElse(variable.getValue(), "");
    }
    var field = variable.getValueFrom().getFieldRef();
    String path = field == null ? null : field.getFieldPath();
    if ("metadata.name".equals(path)) {
      return podName;
    }
    if ("metadata.namespace".equals(path)) {
      return podNamespace;
    }
    throw new IllegalStateException("the chart sets " + variable.getName() + " from " + variable.getValueFrom()
        + ", which a worker outside the cluster cannot be given");
  }

  /**
   * The container's memory limit in bytes, which a JVM in the pod sees as its machine's memory (the heap is a share of
   * it); empty when the chart sets none.
   */
  public OptionalLong memoryLimitBytes() {
    var resources = container.getResources();
    var limit = resources == null || resources.getLimits() == null ? null : resources.getLimits().get("memory");
    return limit == null ? OptionalLong.empty()
        : OptionalLong.of(Quantity.getAmountInBytes(limit).longValueExact());
  }

  /** A file the container reads from a mounted Secret. */
  public record SecretFile(String secretName, String key, String path) {}

  /**
   * The environment variables whose value is the path of a file in a mounted Secret (the Temporal TLS files, the API
   * key), so a sandbox can write the Secret's data to files of its own and point the variables there.
   */
  public Map<String, SecretFile> secretFiles() {
    Map<String, SecretFile> files = new LinkedHashMap<>();
    for (EnvVar variable : container.getEnv()) {
      if (variable.getValue() == null) {
        continue;
      }
      for (VolumeMount mount : container.getVolumeMounts()) {
        String prefix = mount.getMountPath() + "/";
        Volume volume = volume(mount.getName());
        if (volume.getSecret() != null && variable.getValue().startsWith(prefix)) {
          String relative = variable.getValue().substring(prefix.length());
          String key = Objects.requireNonNullElse(volume.getSecret().getItems(), List.<KeyToPath>of()).stream()
              .filter(item -> item.getPath().equals(relative)).map(KeyToPath::getKey).findFirst().orElse(relative);
          files.put(variable.getName(), new SecretFile(volume.getSecret().getSecretName(), key, variable.getValue()));
        }
      }
    }
    return files;
  }

  private Volume volume(String name) {
    return deployment.getSpec().getTemplate().getSpec().getVolumes().stream()
        .filter(v -> v.getName().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalStateException("the chart mounts volume " + name + " that its pod does not have"));
  }

  /** The container's command; empty = the image's entrypoint. */
  public List<String> command() {
    return Objects.requireNonNullElse(container.getCommand(), List.of());
  }

  /** The container's args; empty = the image's. */
  public List<String> args() {
    return Objects.requireNonNullElse(container.getArgs(), List.of());
  }

  public String serviceAccountName() {
    return deployment.getSpec().getTemplate().getSpec().getServiceAccountName();
  }

  /** The release's namespace, where the worker runs. */
  public String namespace() {
    return deployment.getMetadata().getNamespace();
  }
}
