package dev.farrier.activities.compat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.StreamSupport;
import org.yaml.snakeyaml.Yaml;

/**
 * Every field of a CRD's stored version, by path: {@code .} between properties, {@code []} for an array's items,
 * {@code {}} for a map's values (additionalProperties); the top level's apiVersion, kind and metadata are left out.
 * SnakeYAML reads the file because Farrier's CRDs share a schema through a YAML anchor.
 */
record CrdFields(String kind, SortedMap<String, JsonNode> byPath) {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> OBJECT_META = List.of("apiVersion", "kind", "metadata");

  static CrdFields read(Path crdFile) {
    Object yaml;
    try (Reader reader = Files.newBufferedReader(crdFile)) {
      yaml = new Yaml().load(reader);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    JsonNode crd = JSON.valueToTree(yaml);
    JsonNode version = StreamSupport.stream(crd.at("/spec/versions").spliterator(), false)
        .filter(v -> v.path("storage").asBoolean()).findFirst()
        .orElseThrow(() -> new IllegalArgumentException(crdFile + " has no stored version"));
    SortedMap<String, JsonNode> fields = new TreeMap<>();
    JsonNode root = version.at("/schema/openAPIV3Schema");
    root.path("properties").properties().forEach(p -> {
      if (!OBJECT_META.contains(p.getKey())) {
        walk(p.getKey(), p.getValue(), fields);
      }
    });
    return new CrdFields(crd.at("/spec/names/kind").asText(), Collections.unmodifiableSortedMap(fields));
  }

  private static void walk(String path, JsonNode schema, Map<String, JsonNode> into) {
    into.put(path, schema);
    schema.path("properties").properties().forEach(p -> walk(path + "." + p.getKey(), p.getValue(), into));
    if (schema.path("items").isObject()) {
      walk(path + "[]", schema.get("items"), into);
    }
    if (schema.path("additionalProperties").isObject()) {
      walk(path + "{}", schema.get("additionalProperties"), into);
    }
  }

  JsonNode schema(String path) {
    return byPath.get(path);
  }

  /**
   * Whether the field only groups others (an object with properties, or an array of such objects): it needs no row of
   * its own when each field below it has one.
   */
  boolean isGroup(String path) {
    JsonNode schema = schema(path);
    return !schema.path("properties").isEmpty() || !schema.path("items").path("properties").isEmpty();
  }

  /** The enum values of the field, empty when it has none. */
  List<String> enumValues(String path) {
    List<String> values = new ArrayList<>();
    schema(path).path("enum").forEach(v -> values.add(v.asText()));
    return values;
  }

  /** The messages of the CEL rules on the field and on each field above it. */
  List<String> ruleMessagesOnOrAbove(String path) {
    List<String> messages = new ArrayList<>();
    for (String p = path; p != null; p = parent(p)) {
      JsonNode schema = schema(p);
      if (schema != null) {
        schema.path("x-kubernetes-validations").forEach(rule -> messages.add(rule.path("message").asText()));
      }
    }
    return messages;
  }

  /** The field above {@code path}, null at the top. */
  static String parent(String path) {
    if (path.endsWith("[]") || path.endsWith("{}")) {
      return path.substring(0, path.length() - 2);
    }
    int dot = path.lastIndexOf('.');
    return dot < 0 ? null : path.substring(0, dot);
  }

  /** The field's own name, as a message names it: {@code spec.blockDeviceMappings[].ebs.iops} -> {@code iops}. */
  static String name(String path) {
    String p = path;
    while (p.endsWith("[]") || p.endsWith("{}")) {
      p = p.substring(0, p.length() - 2);
    }
    return p.substring(p.lastIndexOf('.') + 1);
  }
}
