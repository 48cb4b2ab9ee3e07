package dev.farrier.localstack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * kubeconform's schemas made from a live API server's OpenAPI v3 (no download): one standalone JSON schema per kind,
 * at {@code <dir>/<group or "v1" for the core group>/<version>/<kind in lower case>.json} (the layout of
 * {@link #LOCATION}), holding the kind's schema and every schema it refers to under {@code components/schemas}, so
 * the API server's {@code $ref}s resolve inside the file. Objects with listed properties get
 * {@code additionalProperties: false} (what kubeconform's {@code -strict} schemas do): a misspelt field fails.
 */
final class OpenApiJsonSchemas {
  /** kubeconform's {@code -schema-location} for a directory written here, with the directory in front. */
  static final String LOCATION = "/{{ .Group }}/{{ .ResourceAPIVersion }}/{{ .ResourceKind }}.json";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String REF_PREFIX = "#/components/schemas/";

  private OpenApiJsonSchemas() {}

  /** Writes the schemas of every kind in these API versions ({@code v1}, {@code apps/v1}, ...); returns how many. */
  static int write(KubernetesClient client, Collection<String> apiVersions, Path dir) throws IOException {
    int written = 0;
    for (String apiVersion : apiVersions) {
      String path = apiVersion.contains("/") ? "apis/" + apiVersion : "api/" + apiVersion;
      JsonNode document = JSON.readTree(client.raw(client.getMasterUrl() + "openapi/v3/" + path));
      JsonNode schemas = document.path("components").path("schemas");
      for (Iterator<Map.Entry<String, JsonNode>> it = schemas.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> entry = it.next();
        for (JsonNode gvk : entry.getValue().path("x-kubernetes-group-version-kind")) {
          String group = gvk.path("group").asText();
          String version = gvk.path("version").asText();
          if (!apiVersion.equals(group.isEmpty() ? version : group + "/" + version)) {
            continue;
          }
          Path file = dir.resolve(group.isEmpty() ? version : group).resolve(version)
              .resolve(gvk.path("kind").asText().toLowerCase() + ".json");
          Files.createDirectories(file.getParent());
          Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(standalone(entry.getKey(), schemas)));
          written++;
        }
      }
    }
    return written;
  }

  private static ObjectNode standalone(String name, JsonNode schemas) {
    Map<String, JsonNode> needed = new TreeMap<>();
    Deque<String> todo = new ArrayDeque<>();
    todo.add(name);
    while (!todo.isEmpty()) {
      String next = todo.poll();
      if (needed.containsKey(next)) {
        continue;
      }
      JsonNode schema = strict(schemas.path(next).deepCopy());
      needed.put(next, schema);
      schema.findValuesAsText("$ref").stream()
          .filter(ref -> ref.startsWith(REF_PREFIX)).map(ref -> ref.substring(REF_PREFIX.length())).forEach(todo::add);
    }
    ObjectNode file = JSON.createObjectNode();
    file.put("$ref", REF_PREFIX + name);
    ObjectNode components = file.putObject("components").putObject("schemas");
    needed.forEach(components::set);
    return file;
  }

  /** Walks schema keywords only: a property named like a keyword ("properties" of JSONSchemaProps) is not one. */
  private static JsonNode strict(JsonNode schema) {
    if (!(schema instanceof ObjectNode object)) {
      return schema;
    }
    if (object.has("properties") && !object.has("additionalProperties")
        && !object.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
      object.put("additionalProperties", false);
    }
    object.path("properties").forEach(OpenApiJsonSchemas::strict);
    strict(object.path("items"));
    strict(object.path("additionalProperties"));
    for (String combinator : new String[] {"allOf", "oneOf", "anyOf"}) {
      object.path(combinator).forEach(OpenApiJsonSchemas::strict);
    }
    return schema;
  }
}
