package dev.farrier.activities.crd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads the project's manifests (deploy/ and test resources) for the model tests. */
public final class Manifests {
  public static final Path DEPLOY = Path.of("..", "deploy");
  public static final Path EXAMPLES = DEPLOY.resolve("examples").resolve("update-nodes-with-drift");
  public static final Path CRDS = DEPLOY.resolve("crds");
  public static final Path TEST_MANIFESTS = Path.of("src", "test", "resources", "manifests");
  public static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private Manifests() {}

  /** Every YAML document of the file, as a tree. */
  public static List<JsonNode> documents(Path file) {
    try (var parser = YAML.createParser(file.toFile())) {
      List<JsonNode> docs = new ArrayList<>();
      YAML.readValues(parser, JsonNode.class).forEachRemaining(doc -> {
        if (doc != null && !doc.isNull() && !doc.isMissingNode()) {
          docs.add(doc);
        }
      });
      return docs;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static JsonNode document(Path file) {
    List<JsonNode> docs = documents(file);
    if (docs.size() != 1) {
      throw new IllegalArgumentException(file + " has " + docs.size() + " documents");
    }
    return docs.getFirst();
  }

  public static <T> T read(Path file, Class<T> type) {
    return SERIALIZATION.convertValue(document(file), type);
  }

  public static String text(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The object as the JSON tree it serializes to. */
  public static JsonNode tree(Object object) {
    try {
      return YAML.readTree(SERIALIZATION.asJson(object));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The tree with scalars compared as text: a quantity written {@code cpu: 8} is stored and written back as the
   * string {@code "8"}, which is the same quantity.
   */
  public static JsonNode scalarsAsText(JsonNode node) {
    if (node.isObject()) {
      ObjectNode copy = JsonNodeFactory.instance.objectNode();
      node.properties().forEach(e -> copy.set(e.getKey(), scalarsAsText(e.getValue())));
      return copy;
    }
    if (node.isArray()) {
      ArrayNode copy = JsonNodeFactory.instance.arrayNode();
      node.forEach(e -> copy.add(scalarsAsText(e)));
      return copy;
    }
    return node.isValueNode() && !node.isNull() ? JsonNodeFactory.instance.textNode(node.asText()) : node;
  }
}
