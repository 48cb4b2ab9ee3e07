package dev.farrier.migrate;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/** Test helper: one migration of text inputs and typed reads of its output. */
record Migration(List<MigratedFile> files) {
  static Migration of(String... yamls) {
    return of(Migrator.Options.defaults(), yamls);
  }

  static Migration of(Migrator.Options options, String... yamls) {
    List<Source> sources = new ArrayList<>();
    for (int i = 0; i < yamls.length; i++) {
      sources.add(new Source("in" + i + ".yaml", yamls[i]));
    }
    return new Migration(Migrator.migrate(sources, options));
  }

  MigratedFile file() {
    return files.getFirst();
  }

  /** Every object written, in order, across the inputs. */
  List<Map<String, Object>> objects() {
    List<Map<String, Object>> all = new ArrayList<>();
    for (MigratedFile f : files) {
      for (Object o : new Yaml().loadAll(f.text())) {
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) o;
        all.add(m);
      }
    }
    return all;
  }

  Map<String, Object> object(String kind, String name) {
    return objects().stream().filter(o -> kind.equals(o.get("kind")) && name.equals(at(o, "metadata.name"))).findFirst()
        .orElseThrow(() -> new AssertionError("no " + kind + "/" + name + " in\n" + files.stream().map(MigratedFile::text).toList()));
  }

  List<Finding> findings(Finding.Kind kind) {
    return files.stream().flatMap(f -> f.findings().stream()).filter(f -> f.kind() == kind).toList();
  }

  /** Asserts a finding of {@code kind} on {@code field} whose message contains {@code words}. */
  Finding finding(Finding.Kind kind, String field, String words) {
    return findings(kind).stream().filter(f -> f.field().equals(field) && f.message().contains(words)).findFirst()
        .orElseThrow(() -> new AssertionError("no " + kind + " on " + field + " saying '" + words + "' in "
            + files.stream().flatMap(f -> f.findings().stream()).toList()));
  }

  void noFinding(String field) {
    assertTrue(files.stream().flatMap(f -> f.findings().stream()).noneMatch(f -> f.field().equals(field)),
        "a finding on " + field + ": " + files.stream().flatMap(f -> f.findings().stream()).toList());
  }

  /** The value at a dotted path ({@code spec.template.spec.expireAfter}; a number indexes a list). */
  @SuppressWarnings("unchecked")
  static Object at(Object root, String path) {
    Object at = root;
    for (String step : path.split("\\.")) {
      if (at == null) {
        return null;
      }
      at = at instanceof List<?> l ? l.get(Integer.parseInt(step)) : ((Map<String, Object>) at).get(step);
    }
    return at;
  }
}
