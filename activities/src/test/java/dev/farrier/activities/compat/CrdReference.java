package dev.farrier.activities.compat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * docs/reference/crds.md: every field of Farrier's CRDs (deploy/crds), with its type, default, allowed values,
 * description and the API server's rules on it, read from the schemas the API server enforces.
 */
final class CrdReference {
  private CrdReference() {}

  static String render(Path crdDir) {
    var out = new StringBuilder("""
        # CRD fields

        Generated from Farrier's CRDs (`deploy/crds/`, the schemas the API server enforces) by `CrdReferenceTest`; do \
        not edit. Whether Farrier honours each field as Karpenter does is in [Compatibility](../COMPATIBILITY.md). A \
        path uses `.` between fields, `[]` for an array's items and `{}` for a map's values; "rules" are the CEL \
        validations on the field, with the message the API server answers when one fails.
        """);
    List<Path> files;
    try (Stream<Path> list = Files.list(crdDir)) {
      files = list.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (Path file : files) {
      CrdFields crd = CrdFields.read(file);
      out.append("\n## ").append(crd.kind()).append("\n\n`").append(crdDir.getFileName()).append('/').append(file.getFileName())
          .append("`\n\n| field | type | description |\n|---|---|---|\n");
      for (Map.Entry<String, JsonNode> field : crd.byPath().entrySet()) {
        out.append("| `").append(field.getKey()).append("` | ").append(type(field.getValue())).append(" | ")
            .append(cell(describe(field.getValue()))).append(" |\n");
      }
    }
    return out.toString();
  }

  private static String type(JsonNode schema) {
    String type = schema.path("type").asText("");
    if (type.equals("array")) {
      type = "array of " + schema.path("items").path("type").asText("any");
    } else if (type.isEmpty() && schema.path("x-kubernetes-int-or-string").asBoolean()) {
      type = "integer or string";
    } else if (type.equals("object") && schema.path("additionalProperties").isObject()) {
      type = "map of " + schema.path("additionalProperties").path("type").asText("any");
    }
    return type.isEmpty() ? "any" : type;
  }

  private static String describe(JsonNode schema) {
    List<String> parts = new ArrayList<>();
    String description = schema.path("description").asText("").strip();
    if (!description.isEmpty()) {
      parts.add(description.replace("<", "&lt;"));
    }
    if (schema.has("default")) {
      parts.add("Default: `" + schema.get("default") + "`.");
    }
    List<String> values = new ArrayList<>();
    schema.path("enum").forEach(v -> values.add("`" + v.asText() + "`"));
    if (!values.isEmpty()) {
      parts.add("One of " + String.join(", ", values) + ".");
    }
    if (schema.has("pattern")) {
      parts.add("Pattern: <code>" + html(schema.get("pattern").asText()) + "</code>.");
    }
    schema.path("x-kubernetes-validations").forEach(rule -> parts.add("Rule: " + rule.path("message").asText(rule.path("rule").asText()).replace("<", "&lt;") + "."));
    return String.join(" ", parts);
  }

  /**
   * Text for an HTML element in a table cell, every character Markdown would read as syntax written as an entity (a pipe
   * in a code span ends the cell on one renderer and not on another; brackets would make a link).
   */
  private static String html(String text) {
    var out = new StringBuilder();
    text.codePoints().forEach(c -> {
      if ("&<>|[]()*_\\`".indexOf(c) >= 0) {
        out.append("&#").append(c).append(';');
      } else {
        out.appendCodePoint(c);
      }
    });
    return out.toString();
  }

  /** A table cell: one line, no pipe that would end it. */
  private static String cell(String text) {
    return text.replace("|", "\\|").replaceAll("\\s*\\n\\s*", " ");
  }
}
