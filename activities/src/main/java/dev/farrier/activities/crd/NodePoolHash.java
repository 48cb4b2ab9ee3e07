package dev.farrier.activities.crd;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.farrier.model.GoDurations;
import io.fabric8.kubernetes.api.model.Taint;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The {@code karpenter.sh/nodepool-hash} value of a NodePool: a stable hash of the parts of {@code spec.template}
 * whose change must drift (replace) the NodePool's existing nodes.
 *
 * <p>What is hashed mirrors Karpenter's {@code NodePool.Hash()} (hashstructure of {@code spec.template} with
 * {@code SlicesAsSets}, {@code IgnoreZeroValue}, {@code ZeroNil}, skipping fields tagged {@code hash:"ignore"}):
 * <ul>
 *   <li>hashed: template labels and annotations; taints and startupTaints (as sets: order does not matter, and
 *       {@code timeAdded} is ignored); nodeClassRef group/kind/name; expireAfter; terminationGracePeriod.</li>
 *   <li>not hashed: {@code requirements} ({@code hash:"ignore"} in Karpenter: a requirements change is detected
 *       per node by checking the node's labels against the new requirements, not by replacing every node), and
 *       everything outside the template (disruption, limits, weight).</li>
 * </ul>
 * Zero values count as absent (a null map equals an empty one). Durations are compared by value ({@code 1h} equals
 * {@code 60m}), and an absent {@code expireAfter} counts as the API server's default {@code 720h}, so a NodePool
 * read from a file hashes like the same NodePool read back from the cluster.
 *
 * <p>The value has Karpenter's shape (a decimal unsigned 64-bit number) but not Karpenter's bits: it is the first
 * 8 bytes of a SHA-256 over a canonical JSON form. {@link #VERSION} therefore differs from Karpenter's
 * ({@code v3}). Farrier writes {@link #VERSION} on every claim it creates, and the disruption planning leaves claims
 * with another version (Karpenter's, or hand-made ones) alone: their hash is not comparable, and Farrier did not
 * launch their instances.
 */
public final class NodePoolHash {
  /** The value of {@code karpenter.sh/nodepool-hash-version} written next to hashes computed here. */
  public static final String VERSION = "farrier-v1";

  /** The API server's default of {@code spec.template.spec.expireAfter}. */
  static final String DEFAULT_EXPIRE_AFTER = "720h";

  private static final ObjectMapper CANONICAL = new ObjectMapper();

  private NodePoolHash() {}

  public static String of(NodePool nodePool) {
    Objects.requireNonNull(nodePool.getSpec(), "NodePool has no spec");
    return of(nodePool.getSpec().template());
  }

  public static String of(NodeClaimTemplate template) {
    return CanonicalHash.of(canonical(template));
  }

  /** The canonical JSON that is hashed; package-private so tests can show what a change did. */
  static String canonical(NodeClaimTemplate template) {
    Map<String, Object> hashed = new LinkedHashMap<>();
    TemplateMetadata metadata = template == null ? new TemplateMetadata(null, null) : template.metadataOrEmpty();
    putIfNotEmpty(hashed, "labels", new TreeMap<>(metadata.labelsOrEmpty()));
    putIfNotEmpty(hashed, "annotations", new TreeMap<>(metadata.annotationsOrEmpty()));
    NodeClaimTemplateSpec spec = template == null ? null : template.spec();
    if (spec != null) {
      putIfNotEmpty(hashed, "taints", taintSet(spec.taintsOrEmpty()));
      putIfNotEmpty(hashed, "startupTaints", taintSet(spec.startupTaintsOrEmpty()));
      NodeClassReference ref = spec.nodeClassRef();
      if (ref != null) {
        hashed.put("nodeClassRef", List.of(nullToEmpty(ref.group()), nullToEmpty(ref.kind()), nullToEmpty(ref.name())));
      }
      hashed.put("expireAfter", normalizeDuration(spec.expireAfter() == null ? DEFAULT_EXPIRE_AFTER : spec.expireAfter()));
      if (spec.terminationGracePeriod() != null) {
        hashed.put("terminationGracePeriod", normalizeDuration(spec.terminationGracePeriod()));
      }
    }
    try {
      return CANONICAL.writeValueAsString(hashed);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize a map of strings", e);
    }
  }

  /** Taints as a sorted list of distinct {@code key=value:effect}: order and duplicates do not matter (a set). */
  private static List<String> taintSet(List<Taint> taints) {
    return taints.stream()
        .map(t -> nullToEmpty(t.getKey()) + "=" + nullToEmpty(t.getValue()) + ":" + nullToEmpty(t.getEffect()))
        .distinct()
        .sorted()
        .toList();
  }

  /**
   * {@code 1h30m}, {@code 90m} and {@code 1.5h} become {@code 5400s} (whole seconds; {@code ms} otherwise), read by
   * {@link GoDurations}; {@code Never} and anything unparsable stay verbatim.
   */
  static String normalizeDuration(String duration) {
    Long millis = GoDurations.toMillis(duration);
    if (millis == null) {
      return duration;
    }
    return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
  }

  private static void putIfNotEmpty(Map<String, Object> target, String key, Map<String, String> value) {
    if (!value.isEmpty()) {
      target.put(key, value);
    }
  }

  private static void putIfNotEmpty(Map<String, Object> target, String key, List<String> value) {
    if (!value.isEmpty()) {
      target.put(key, new ArrayList<>(value));
    }
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
