package dev.farrier.migrate;

import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;

/** What one migration has found so far: the report's lines per input and the problems that stop it. */
final class Ctx {
  final Migrator.Options options;
  final List<Finding> findings = new ArrayList<>();
  final List<String> problems = new ArrayList<>();
  /** The inputs whose {@code v1 List} was written out as documents of their own. */
  final java.util.Set<String> listsUnwrapped = new java.util.HashSet<>();

  Ctx(Migrator.Options options) {
    this.options = options;
  }

  void note(Finding.Kind kind, Doc doc, String field, Node at, String message) {
    findings.add(new Finding(kind, doc.label(), doc.source.name(), at == null ? 0 : Tree.line(at), field, message));
  }

  void note(Finding.Kind kind, Doc doc, String field, NodeTuple at, String message) {
    note(kind, doc, field, at == null ? null : at.getKeyNode(), message);
  }

  void changed(Doc doc, String field, NodeTuple at, String message) {
    note(Finding.Kind.CHANGED, doc, field, at, message);
  }

  void keptDefault(Doc doc, String field, Node at, String message) {
    note(Finding.Kind.KEPT_DEFAULT, doc, field, at, message);
  }

  void person(Doc doc, String field, Node at, String message) {
    note(Finding.Kind.NEEDS_PERSON, doc, field, at, message);
  }

  /** A problem that stops the migration: {@code file:line: Kind/name: field: message}. */
  void problem(Doc doc, String field, Node at, String message) {
    int line = at == null ? 0 : Tree.line(at);
    problems.add(doc.source.name() + (line > 0 ? ":" + line : "") + ": " + doc.label()
        + (field.isEmpty() ? "" : ": " + field) + ": " + message);
  }
}
