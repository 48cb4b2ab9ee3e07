package dev.farrier.activities.cloud;

import java.util.Map;

/** Karpenter's tag selector: every selector tag must be present; the value {@code *} matches any value. */
public final class SelectorTags {
  public static final String ANY = "*";

  private SelectorTags() {}

  public static boolean match(Map<String, String> selector, Map<String, String> tags) {
    for (Map.Entry<String, String> wanted : selector.entrySet()) {
      String value = tags.get(wanted.getKey());
      if (value == null || !(ANY.equals(wanted.getValue()) || wanted.getValue().equals(value))) {
        return false;
      }
    }
    return true;
  }
}
