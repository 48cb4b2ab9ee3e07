package dev.farrier.migrate;

import java.util.List;
import java.util.Map;

/** A migrated input's report in plain words: what needs a person first, then what changed and why. */
public final class Report {
  private Report() {}

  private static final Map<Finding.Kind, String> HEADINGS = Map.of(
      Finding.Kind.NEEDS_PERSON, "Needs a person (not migrated on its own)",
      Finding.Kind.KEPT_DEFAULT, "Defaults that changed in v1: the old behaviour, now written out",
      Finding.Kind.NEW_BEHAVIOUR, "Behaviour that changed in v1 and that no field pins",
      Finding.Kind.CHANGED, "Changes (same behaviour, v1 form)");

  public static String render(MigratedFile file) {
    var out = new StringBuilder("# farrier migrate: ").append(file.source()).append("\n\n");
    long people = count(file.findings(), Finding.Kind.NEEDS_PERSON);
    if (file.findings().isEmpty()) {
      out.append(file.changed() ? "Migrated to v1.\n" : "Nothing to migrate: no object here is an old Karpenter one or "
          + "carries an old annotation, label or toleration. The output is the input, unchanged.\n");
      return out.toString();
    }
    out.append(people == 0 ? "Everything was migrated; nothing needs a person.\n"
        : people + " thing(s) need a person before these manifests are applied.\n");
    for (Finding.Kind kind : List.of(Finding.Kind.NEEDS_PERSON, Finding.Kind.KEPT_DEFAULT, Finding.Kind.NEW_BEHAVIOUR,
        Finding.Kind.CHANGED)) {
      List<Finding> of = file.findings().stream().filter(f -> f.kind() == kind).toList();
      if (of.isEmpty()) {
        continue;
      }
      out.append("\n## ").append(HEADINGS.get(kind)).append("\n\n");
      for (Finding f : of) {
        out.append("- ").append(f.object()).append(f.field().isEmpty() ? "" : " " + f.field()).append(" (")
            .append(f.where()).append("): ").append(f.message()).append('\n');
      }
    }
    return out.toString();
  }

  private static long count(List<Finding> findings, Finding.Kind kind) {
    return findings.stream().filter(f -> f.kind() == kind).count();
  }
}
