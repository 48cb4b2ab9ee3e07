package dev.farrier.localstack;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Farrier's Helm chart ({@code deploy/charts/farrier}) as {@code helm template} renders it, so the sandbox and the tests
 * run what the chart installs (its worker settings and RBAC) instead of a copy that could drift from it.
 *
 * <pre>{@code
 * HelmChart chart = HelmChart.forStack(stack, HelmChart.locate(Path.of("")));
 * HelmChart.Rendered rendered = chart.template("farrier", "farrier", Map.of("settings", Map.of("clusterName", "dev")));
 * WorkerSettingsFromChart worker = WorkerSettingsFromChart.of(rendered);
 * }</pre>
 *
 * @param helm the helm binary ({@code tools/install.sh} puts it next to the stack's other binaries)
 * @param chart the chart's directory
 * @param kubeVersion the Kubernetes version to render for ({@code --kube-version}); a helm built by plain
 *     {@code go install} would otherwise assume its own default
 */
public record HelmChart(Path helm, Path chart, String kubeVersion) {
  /** Where the chart lives in the repository. */
  public static final Path CHART_IN_REPO = Path.of("deploy", "charts", "farrier");
  private static final Duration TIMEOUT = Duration.ofMinutes(2);
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  public HelmChart {
    Objects.requireNonNull(helm, "helm");
    Objects.requireNonNull(chart, "chart");
    Objects.requireNonNull(kubeVersion, "kubeVersion");
  }

  /** The chart rendered by the helm next to the stack's binaries, for the stack's Kubernetes version. */
  public static HelmChart forStack(LocalStack stack, Path chart) {
    return new HelmChart(stack.binDir().resolve("helm"), chart, stack.kubernetesVersion());
  }

  /** {@code deploy/charts/farrier} of the repository {@code from} is in (the repository root or one of its modules). */
  public static Path locate(Path from) {
    for (Path dir = from.toAbsolutePath().normalize(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve(CHART_IN_REPO).resolve("Chart.yaml"))) {
        return dir.resolve(CHART_IN_REPO);
      }
    }
    throw new IllegalStateException("no " + CHART_IN_REPO + "/Chart.yaml in " + from.toAbsolutePath() + " or above");
  }

  /**
   * {@code helm template}: the objects the chart installs as release {@code release} in {@code namespace} (CRDs not
   * included: they are in the chart's {@code crds/} directory, which helm applies before the templates).
   *
   * @param values values as YAML would hold them (nested maps, lists, strings, numbers, booleans), applied after
   *     {@code valuesFiles}
   * @throws HelmException when helm refuses (a value the schema rejects, a {@code required} value missing)
   */
  public Rendered template(String release, String namespace, Map<String, ?> values, List<Path> valuesFiles) {
    List<String> command = new ArrayList<>(List.of(helm.toString(), "template", release, chart.toString(),
        "--namespace", namespace, "--kube-version", kubeVersion));
    String yaml = run(command, values, valuesFiles);
    return new Rendered(yaml, parse(yaml));
  }

  public Rendered template(String release, String namespace, Map<String, ?> values) {
    return template(release, namespace, values, List.of());
  }

  /** {@code helm lint --strict} with these values; returns helm's report, or throws with it when the chart fails. */
  public String lint(Map<String, ?> values, List<Path> valuesFiles) {
    List<String> command = new ArrayList<>(List.of(helm.toString(), "lint", chart.toString(), "--strict",
        "--kube-version", kubeVersion));
    return run(command, values, valuesFiles);
  }

  /** Runs helm with the values files, then {@code values} written to a temp file (later files win). */
  private String run(List<String> command, Map<String, ?> values, List<Path> valuesFiles) {
    valuesFiles.forEach(file -> command.addAll(List.of("--values", file.toAbsolutePath().toString())));
    Path file = null;
    try {
      if (!values.isEmpty()) {
        file = Files.createTempFile("farrier-values-", ".yaml");
        Files.writeString(file, SERIALIZATION.asYaml(values));
        command.addAll(List.of("--values", file.toString()));
      }
      CommandLine.Captured result = CommandLine.capture(command, TIMEOUT);
      if (!result.succeeded()) {
        throw new HelmException("helm " + command.get(1) + " failed (exit " + result.exitCode() + "): "
            + (result.stderr() + result.stdout()).strip());
      }
      return result.stdout();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the values file", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new HelmException("interrupted while running helm " + command.get(1));
    } finally {
      if (file != null) {
        try {
          Files.deleteIfExists(file);
        } catch (IOException ignored) {
          // a leftover temp file is harmless
        }
      }
    }
  }

  /** Every document of a multi-document YAML stream, typed where fabric8 knows the kind, else generic. */
  static List<HasMetadata> parse(String yaml) {
    Object parsed = SERIALIZATION.unmarshal(yaml);
    List<?> documents = parsed instanceof List<?> list ? list : parsed == null ? List.of() : List.of(parsed);
    List<HasMetadata> objects = new ArrayList<>();
    for (Object document : documents) {
      if (document instanceof HasMetadata object) {
        objects.add(object);
      } else if (document != null) {
        throw new IllegalStateException("helm rendered something that is not a Kubernetes object: " + document);
      }
    }
    return List.copyOf(objects);
  }

  /** What one {@code helm template} printed and the objects in it. */
  public record Rendered(String yaml, List<HasMetadata> objects) {
    public <T extends HasMetadata> List<T> all(Class<T> type) {
      return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /** The one object of this type; fails when there is none or more than one. */
    public <T extends HasMetadata> T one(Class<T> type) {
      List<T> found = all(type);
      if (found.size() != 1) {
        throw new IllegalStateException("expected one " + type.getSimpleName() + ", the chart rendered " + found.size());
      }
      return found.getFirst();
    }

    /** The objects of these kinds left out (e.g. a ServiceMonitor where its CRD is not installed). */
    public List<HasMetadata> without(String... kinds) {
      List<String> left = List.of(kinds);
      return objects.stream().filter(o -> !left.contains(o.getKind())).toList();
    }
  }

  /** helm refused: the message has its words (the schema's complaint, the missing required value). */
  public static final class HelmException extends RuntimeException {
    HelmException(String message) {
      super(message);
    }
  }
}
