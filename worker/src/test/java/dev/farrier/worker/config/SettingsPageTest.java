package dev.farrier.worker.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * docs/settings.md lists every key of the worker's application.yml, and only keys the worker has, so the page a user
 * sets the worker up from cannot fall behind its configuration. A row names a key in full and may add siblings after
 * slashes ({@code `farrier.gc.interval` / `grace`}).
 */
class SettingsPageTest {
  private static final Path PAGE = Path.of("..", "docs", "settings.md");
  private static final Pattern ROW = Pattern.compile("^\\| (`farrier\\.[^|]*)\\|", Pattern.MULTILINE);
  private static final Pattern KEY = Pattern.compile("`([a-z0-9.-]+)`");

  @Test
  void everyKeyOfTheWorkersConfigurationIsOnTheSettingsPageAndNothingElse() throws IOException {
    Set<String> configured = new TreeSet<>();
    try (InputStream in = getClass().getResourceAsStream("/application.yml")) {
      Map<String, Object> yaml = new Yaml().load(in);
      flatten("", yaml, configured);
    }
    configured.removeIf(k -> !k.startsWith("farrier."));
    Set<String> documented = documented(Files.readString(PAGE));
    assertTrue(documented.size() > 30, "the page's rows were read: " + documented);
    Set<String> missing = new TreeSet<>(configured);
    missing.removeAll(documented);
    assertEquals(Set.of(), missing, "keys of application.yml that docs/settings.md does not list");
    Set<String> unknown = new TreeSet<>(documented);
    unknown.removeAll(configured);
    unknown.removeIf(k -> k.startsWith("farrier.simulated.")); // the simulated cloud's own, read by SimulatedCloudPlugin
    unknown.remove("farrier.log.format"); // read by logback.xml before the configuration, not from application.yml
    assertEquals(Set.of(), unknown, "keys docs/settings.md lists that the worker does not have");
  }

  static Set<String> documented(String page) {
    Set<String> keys = new TreeSet<>();
    Matcher row = ROW.matcher(page);
    while (row.find()) {
      List<String> names = new ArrayList<>();
      Matcher key = KEY.matcher(row.group(1));
      while (key.find()) {
        names.add(key.group(1));
      }
      String first = names.getFirst();
      keys.add(first);
      String parent = first.substring(0, first.lastIndexOf('.') + 1);
      names.subList(1, names.size()).forEach(sibling -> keys.add(parent + sibling));
    }
    return keys;
  }

  @SuppressWarnings("unchecked")
  private static void flatten(String prefix, Map<String, Object> map, Set<String> into) {
    map.forEach((k, v) -> {
      if (v instanceof Map<?, ?> child) {
        flatten(prefix + k + ".", (Map<String, Object>) child, into);
      } else {
        into.add(prefix + k);
      }
    });
  }
}
