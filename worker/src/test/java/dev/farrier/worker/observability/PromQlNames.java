package dev.farrier.worker.observability;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The metric names a PromQL expression selects (identifiers under {@code karpenter_} or {@code farrier_}) and the
 * label names each selector matches on; a scan of PromQL's identifier and brace tokens, enough for a dashboard's
 * queries (no string contains a metric name).
 */
final class PromQlNames {
  private PromQlNames() {}

  static Set<String> of(String expr) {
    return labels(expr).keySet();
  }

  /** Each selected metric with the label names of its {@code {...}} matcher (empty without one). */
  static Map<String, Set<String>> labels(String expr) {
    Map<String, Set<String>> selected = new LinkedHashMap<>();
    int i = 0;
    while (i < expr.length()) {
      char c = expr.charAt(i);
      if (c == '"') {
        i = expr.indexOf('"', i + 1) + 1;
        continue;
      }
      if (!identifierStart(c)) {
        i++;
        continue;
      }
      int end = i;
      while (end < expr.length() && identifierPart(expr.charAt(end))) {
        end++;
      }
      String word = expr.substring(i, end);
      i = end;
      if (!word.startsWith("karpenter_") && !word.startsWith("farrier_")) {
        continue;
      }
      var labels = selected.computeIfAbsent(word, w -> new LinkedHashSet<>());
      if (i < expr.length() && expr.charAt(i) == '{') {
        int close = expr.indexOf('}', i);
        for (String matcher : expr.substring(i + 1, close).split(",")) {
          String name = matcher.split("[=!~]", 2)[0].trim();
          if (!name.isEmpty()) {
            labels.add(name);
          }
        }
        i = close + 1;
      }
    }
    return selected;
  }

  private static boolean identifierStart(char c) {
    return Character.isLetter(c) || c == '_' || c == ':';
  }

  private static boolean identifierPart(char c) {
    return identifierStart(c) || Character.isDigit(c);
  }
}
