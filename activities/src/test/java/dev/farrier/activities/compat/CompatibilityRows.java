package dev.farrier.activities.compat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * docs/compatibility.yaml: per kind, one row per field of Karpenter's CRDs (or per field with the fields below it),
 * saying that Farrier honours it (with the test that shows it), refuses it at admission (with the message and an
 * object that sets it), or, for a status field, does not write it (and why).
 */
record CompatibilityRows(Upstream upstream, Map<String, Map<String, Row>> byKind, List<FarrierOnly> farrierOnly) {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Set<String> KEYS = Set.of("works", "refused", "notWritten", "example", "why", "refusedValues");
  private static final Set<String> FARRIER_ONLY_KEYS = Set.of("capability", "peers", "turnOn", "works", "why");

  /** Which releases the rows were checked against. */
  record Upstream(String core, String aws) {}

  /**
   * One row: exactly one of {@code works} (a test, {@code SimpleClassName#method}), {@code refused} (the message
   * Farrier's CRD answers with) and {@code notWritten} (a status field Farrier leaves unset, and why).
   *
   * @param example       for {@code refused}: what to merge into a valid object so that it sets the field
   * @param why           what the test asserts, in a line
   * @param refusedValues values Farrier's CRD refuses by a rule of their own, though the field works
   * @param unknownKeys   keys the row has that none of these read (a typo would otherwise pass unseen)
   */
  record Row(String path, String works, String refused, String notWritten, JsonNode example, String why,
      Map<String, RefusedValue> refusedValues, List<String> unknownKeys) {
    String status() {
      return works != null ? "works" : refused != null ? "refused" : "not written";
    }
  }

  /**
   * A capability no peer has (Karpenter, the AWS Node Termination Handler, EKS managed node groups), turned on by a
   * {@code farrier.dev/*} annotation, a CLI flag or a workflow input, never by a field of Karpenter's schemas.
   *
   * @param peers  what the peers do instead (and the upstream issue asking for it)
   * @param turnOn how a user turns it on
   * @param works  the test that shows it, {@code SimpleClassName#method}
   */
  record FarrierOnly(String capability, String peers, String turnOn, String works, String why, List<String> unknownKeys) {}

  /** An enum value that is refused: the message and an object that sets the value. */
  record RefusedValue(String value, String refused, JsonNode example) {}

  static CompatibilityRows read(Path file) {
    JsonNode root;
    try {
      root = YAML.readTree(file.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    var upstream = new Upstream(root.at("/upstream/core").asText(), root.at("/upstream/aws").asText());
    Map<String, Map<String, Row>> byKind = new LinkedHashMap<>();
    root.path("kinds").properties().forEach(kind -> {
      Map<String, Row> rows = new LinkedHashMap<>();
      kind.getValue().properties().forEach(entry -> rows.put(entry.getKey(), row(entry.getKey(), entry.getValue())));
      byKind.put(kind.getKey(), rows);
    });
    List<FarrierOnly> farrierOnly = new ArrayList<>();
    root.path("farrierOnly").forEach(node -> farrierOnly.add(new FarrierOnly(text(node, "capability"), text(node, "peers"),
        text(node, "turnOn"), text(node, "works"), text(node, "why"), unknownKeys(node, FARRIER_ONLY_KEYS))));
    return new CompatibilityRows(upstream, byKind, farrierOnly);
  }

  private static Row row(String path, JsonNode node) {
    Map<String, RefusedValue> values = new LinkedHashMap<>();
    node.path("refusedValues").properties().forEach(v -> values.put(v.getKey(),
        new RefusedValue(v.getKey(), text(v.getValue(), "refused"), v.getValue().get("example"))));
    return new Row(path, text(node, "works"), text(node, "refused"), text(node, "notWritten"), node.get("example"),
        text(node, "why"), values, unknownKeys(node, KEYS));
  }

  private static List<String> unknownKeys(JsonNode node, Set<String> known) {
    List<String> unknown = new ArrayList<>();
    node.fieldNames().forEachRemaining(key -> {
      if (!known.contains(key)) {
        unknown.add(key);
      }
    });
    return unknown;
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }

  Map<String, Row> rows(String kind) {
    return byKind.getOrDefault(kind, Map.of());
  }

  /** The row that speaks for {@code path}: its own, or the nearest field above it that has one. */
  Optional<Row> covering(String kind, String path) {
    Map<String, Row> rows = rows(kind);
    for (String p = path; p != null; p = CrdFields.parent(p)) {
      if (rows.containsKey(p)) {
        return Optional.of(rows.get(p));
      }
    }
    return Optional.empty();
  }

  /** Every refused row and refused value of the kind, each with the example that sets it. */
  List<RefusedValue> refusals(String kind) {
    List<RefusedValue> out = new ArrayList<>();
    for (Row row : rows(kind).values()) {
      if (row.refused() != null) {
        out.add(new RefusedValue(row.path(), row.refused(), row.example()));
      }
      out.addAll(row.refusedValues().values().stream()
          .map(v -> new RefusedValue(row.path() + " = " + v.value(), v.refused(), v.example())).toList());
    }
    return out;
  }
}
