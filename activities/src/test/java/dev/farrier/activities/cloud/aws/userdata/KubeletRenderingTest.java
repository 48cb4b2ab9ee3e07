package dev.farrier.activities.cloud.aws.userdata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.farrier.activities.crd.KubeletConfiguration;
import dev.farrier.model.Resources;
import dev.farrier.model.Taint;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.EvictionThreshold;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.KubeletSettings;
import dev.farrier.planner.NodeKubelet;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Every family tells the kubelet what the planner assumed: the rendered user data, read back with the libraries that
 * wrote it, carries the unregistered taint, the planner's max pods and kube-reserved for the instance type, and the
 * node class's system-reserved and eviction settings; and those rendered values are exactly what the planner took off
 * the node's capacity.
 */
class KubeletRenderingTest {
  private static final long MIB = 1L << 20;
  private static final long GIB = 1L << 30;
  /** An m5.xlarge: 4 vCPUs, 16 GiB, 58 ENI pods, a 20Gi root volume. */
  private static final Resources CAPACITY = new Resources(4000, 16 * GIB, 20 * GIB, 58, Map.of());
  private static final KubeletConfiguration CONFIG = new KubeletConfiguration(List.of("10.100.0.10"), null, null,
      Map.of("cpu", "100m", "memory", "200Mi"), Map.of("cpu", "200m"), Map.of("memory.available", "300Mi", "nodefs.available", "15%"),
      Map.of("memory.available", "500Mi"), Map.of("memory.available", "1m30s"), 60, null, null, null);
  /** The planner's reading of {@link #CONFIG} (as {@code NodeClassLaunches.kubelet} makes it). */
  private static final KubeletSettings SETTINGS = new KubeletSettings(null, null, new Resources(200, 0, 0, 0, Map.of()),
      new Resources(100, 200 * MIB, 0, 0, Map.of()), List.of(EvictionThreshold.ofBytes(300 * MIB), EvictionThreshold.ofBytes(500 * MIB)),
      List.of(EvictionThreshold.ofPercent(15)));
  private static final NodeKubelet NODE = NodeKubelet.of(CAPACITY, SETTINGS);

  private static NodeBootstrap node(KubeletConfiguration config) {
    return new NodeBootstrap("prod", "https://api.example", "Q0E=", "10.100.0.0/16", Map.of(WellKnown.NODEPOOL_LABEL, "default"),
        List.of(new Taint("dedicated", "apps", "NoSchedule"), WellKnown.UNREGISTERED_TAINT), config, NODE, null, false);
  }

  /** The kubelet settings as the node reads them, in one shape for every family. */
  record Rendered(long maxPods, Map<String, String> kubeReserved, Map<String, String> systemReserved, Map<String, String> evictionHard,
      Map<String, String> evictionSoft, Map<String, String> gracePeriods, List<String> taints) {}

  private static Rendered rendered(String family) {
    String userData = UserDataFormat.of(family).render(node(CONFIG));
    return switch (family) {
      case "AL2023" -> {
        JsonNode config = UserDataFormatTest.yaml(MimeMultipart.parse(userData).getLast().body()).at("/spec/kubelet/config");
        List<String> taints = new java.util.ArrayList<>();
        config.get("registerWithTaints").forEach(t -> taints.add(t.get("key").asText() + (t.has("value") ? "=" + t.get("value").asText() : "")
            + ":" + t.get("effect").asText()));
        yield new Rendered(config.get("maxPods").asLong(), UserDataFormatTest.strings(config.get("kubeReserved")),
            UserDataFormatTest.strings(config.get("systemReserved")), UserDataFormatTest.strings(config.get("evictionHard")),
            UserDataFormatTest.strings(config.get("evictionSoft")), UserDataFormatTest.strings(config.get("evictionSoftGracePeriod")), taints);
      }
      case "AL2", "Windows2022" -> {
        String script = family.equals("AL2") ? MimeMultipart.parse(userData).getLast().body() : userData;
        String opening = family.equals("AL2") ? "--kubelet-extra-args '" : "-KubeletExtraArgs '";
        int from = script.indexOf(opening) + opening.length();
        String args = script.substring(from, script.indexOf('\'', from));
        Map<String, String> flags = Arrays.stream(args.split(" ")).collect(Collectors.toMap(
            f -> f.substring(2, f.indexOf('=')), f -> f.substring(f.indexOf('=') + 1)));
        yield new Rendered(Long.parseLong(flags.get("max-pods")), flagMap(flags.get("kube-reserved"), "="),
            flagMap(flags.get("system-reserved"), "="), flagMap(flags.get("eviction-hard"), "<"), flagMap(flags.get("eviction-soft"), "<"),
            flagMap(flags.get("eviction-soft-grace-period"), "="), List.of(flags.get("register-with-taints").split(",")));
      }
      default -> {
        JsonNode kubernetes = UserDataFormatTest.toml(userData).at("/settings/kubernetes");
        List<String> taints = new java.util.ArrayList<>();
        kubernetes.get("node-taints").fields().forEachRemaining(e -> e.getValue().forEach(v -> {
          String[] valueEffect = v.asText().split(":");
          taints.add(e.getKey() + (valueEffect[0].isEmpty() ? "" : "=" + valueEffect[0]) + ":" + valueEffect[1]);
        }));
        yield new Rendered(kubernetes.get("max-pods").asLong(), UserDataFormatTest.strings(kubernetes.get("kube-reserved")),
            UserDataFormatTest.strings(kubernetes.get("system-reserved")), UserDataFormatTest.strings(kubernetes.get("eviction-hard")),
            UserDataFormatTest.strings(kubernetes.get("eviction-soft")), UserDataFormatTest.strings(kubernetes.get("eviction-soft-grace-period")),
            taints);
      }
    };
  }

  private static Map<String, String> flagMap(String value, String separator) {
    Map<String, String> map = new TreeMap<>();
    for (String entry : value.split(",")) {
      map.put(entry.substring(0, entry.indexOf(separator)), entry.substring(entry.indexOf(separator) + separator.length()));
    }
    return map;
  }

  @ParameterizedTest
  @ValueSource(strings = {"AL2023", "AL2", "Bottlerocket", "Windows2022"})
  void theNodeIsToldWhatThePlannerAssumed(String family) {
    Rendered rendered = rendered(family);

    assertTrue(rendered.taints().contains("karpenter.sh/unregistered:NoExecute"), rendered.taints().toString());
    assertTrue(rendered.taints().contains("dedicated=apps:NoSchedule"), rendered.taints().toString());
    assertEquals(NODE.maxPods(), rendered.maxPods(), "the ENI max pods the planner used");
    assertEquals(58, rendered.maxPods());
    assertEquals(Map.of("cpu", "200m", "memory", "893Mi", "ephemeral-storage", "1Gi"), rendered.kubeReserved(),
        "the node class's cpu, the planner's memory (255Mi + 11Mi x 58 pods) and ephemeral-storage");
    assertEquals(CONFIG.systemReserved(), rendered.systemReserved());
    assertEquals(CONFIG.evictionHard(), rendered.evictionHard());
    assertEquals(CONFIG.evictionSoft(), rendered.evictionSoft());
    assertEquals(CONFIG.evictionSoftGracePeriod(), rendered.gracePeriods());

    // What the planner gives pods is the capacity less exactly what the node was told to hold back.
    Resources allocatable = new InstanceTypeView("m5.xlarge", "amd64", Map.of(), CAPACITY, List.of()).allocatable(SETTINGS);
    long cpuHeldBack = millis(rendered.kubeReserved().get("cpu")) + millis(rendered.systemReserved().get("cpu"));
    assertEquals(CAPACITY.milliCpu() - cpuHeldBack, allocatable.milliCpu());
    long vmOverhead = (16 * 1024 * 75 + 999) / 1000 * MIB;
    long memoryHeldBack = bytes(rendered.kubeReserved().get("memory")) + bytes(rendered.systemReserved().get("memory"))
        + Math.max(bytes(rendered.evictionHard().get("memory.available")), bytes(rendered.evictionSoft().get("memory.available")));
    assertEquals(CAPACITY.memoryBytes() - vmOverhead - memoryHeldBack, allocatable.memoryBytes(), "the node evicts at the soft 500Mi");
    String nodefs = rendered.evictionHard().get("nodefs.available");
    long diskHeldBack = bytes(rendered.kubeReserved().get("ephemeral-storage"))
        + (long) Math.ceil(CAPACITY.ephemeralStorageBytes() * Double.parseDouble(nodefs.substring(0, nodefs.length() - 1)) / 100);
    assertEquals(CAPACITY.ephemeralStorageBytes() - diskHeldBack, allocatable.ephemeralStorageBytes(), "nodefs.available " + nodefs);
    assertEquals(rendered.maxPods(), allocatable.pods());
  }

  private static long millis(String quantity) {
    return Quantity.getAmountInBytes(new Quantity(quantity)).movePointRight(3).longValueExact();
  }

  private static long bytes(String quantity) {
    return Quantity.getAmountInBytes(new Quantity(quantity)).longValueExact();
  }

  @Test
  void aSoftThresholdWithoutAGracePeriodOrAnUnreadableGracePeriodIsRefused() {
    var noGrace = new KubeletConfiguration(null, null, null, null, null, null, Map.of("memory.available", "500Mi"), null, null, null, null,
        null);
    var error = assertThrows(IllegalArgumentException.class, () -> UserDataFormat.of("AL2023").render(node(noGrace)));
    assertTrue(error.getMessage().contains("evictionSoftGracePeriod has no memory.available"), error.getMessage());
    var badGrace = new KubeletConfiguration(null, null, null, null, null, null, Map.of("memory.available", "500Mi"),
        Map.of("memory.available", "soon"), null, null, null, null);
    var bad = assertThrows(IllegalArgumentException.class, () -> UserDataFormat.of("Bottlerocket").render(node(badGrace)));
    assertTrue(bad.getMessage().contains("'soon' is not a duration"), bad.getMessage());
  }

  /**
   * The kubelet settings the planner does not read reach the node as the family's own setting: the longest grace
   * period for a soft eviction, the image GC thresholds and the CFS quota.
   */
  @ParameterizedTest
  @ValueSource(strings = {"AL2023", "AL2", "Bottlerocket", "Windows2022"})
  void theSettingsThePlannerDoesNotReadStillReachTheNode(String family) {
    var config = new KubeletConfiguration(null, null, null, null, null, null, null, null, 45, 85, 70, false);

    String userData = UserDataFormat.of(family).render(node(config));

    Map<String, String> settings = switch (family) {
      case "AL2023" -> {
        JsonNode kubelet = UserDataFormatTest.yaml(MimeMultipart.parse(userData).getLast().body()).at("/spec/kubelet/config");
        yield Map.of("evictionMaxPodGracePeriod", kubelet.path("evictionMaxPodGracePeriod").asText(),
            "imageGCHighThresholdPercent", kubelet.path("imageGCHighThresholdPercent").asText(),
            "imageGCLowThresholdPercent", kubelet.path("imageGCLowThresholdPercent").asText(),
            "cpuCFSQuota", kubelet.path("cpuCFSQuota").asText());
      }
      case "AL2", "Windows2022" -> {
        String script = family.equals("AL2") ? MimeMultipart.parse(userData).getLast().body() : userData;
        yield Map.of("evictionMaxPodGracePeriod", flag(script, "--eviction-max-pod-grace-period="),
            "imageGCHighThresholdPercent", flag(script, "--image-gc-high-threshold="),
            "imageGCLowThresholdPercent", flag(script, "--image-gc-low-threshold="),
            "cpuCFSQuota", flag(script, "--cpu-cfs-quota="));
      }
      default -> {
        JsonNode kubernetes = UserDataFormatTest.toml(userData).at("/settings/kubernetes");
        yield Map.of("evictionMaxPodGracePeriod", kubernetes.path("eviction-max-pod-grace-period").asText(),
            "imageGCHighThresholdPercent", kubernetes.path("image-gc-high-threshold-percent").asText(),
            "imageGCLowThresholdPercent", kubernetes.path("image-gc-low-threshold-percent").asText(),
            "cpuCFSQuota", kubernetes.path("cpu-cfs-quota-enforced").asText());
      }
    };

    assertEquals(Map.of("evictionMaxPodGracePeriod", "45", "imageGCHighThresholdPercent", "85", "imageGCLowThresholdPercent", "70",
        "cpuCFSQuota", "false"), settings);
  }

  private static String flag(String script, String prefix) {
    int at = script.indexOf(prefix);
    if (at < 0) {
      return "";
    }
    int end = at + prefix.length();
    while (end < script.length() && script.charAt(end) != ' ' && script.charAt(end) != '\'') {
      end++;
    }
    return script.substring(at + prefix.length(), end);
  }
}
