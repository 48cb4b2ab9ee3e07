package dev.farrier.workflows;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.MDC;

/**
 * One log line per decision with its fields (nodeclaim, node, instance, reason) as MDC entries, so a JSON encoder
 * writes them as separate keys and the message stays exactly as written (the workflow logger is not
 * key-value aware, and slf4j's fallback would prepend the pairs to the message). Safe in workflow code: the MDC is
 * thread-local bookkeeping that no decision reads, and the workflow logger drops lines while replaying.
 */
public final class StructuredLog {
  private StructuredLog() {}

  /** {@code keyValues} alternate key and value; null values are left out. */
  public static void info(Logger log, String message, Object... keyValues) {
    List<String> keys = put(keyValues);
    try {
      log.info(message);
    } finally {
      keys.forEach(MDC::remove);
    }
  }

  public static void warn(Logger log, String message, Object... keyValues) {
    List<String> keys = put(keyValues);
    try {
      log.warn(message);
    } finally {
      keys.forEach(MDC::remove);
    }
  }

  private static List<String> put(Object[] keyValues) {
    if (keyValues.length % 2 != 0) {
      throw new IllegalArgumentException("keyValues must alternate key and value");
    }
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      if (keyValues[i + 1] != null) {
        String key = String.valueOf(keyValues[i]);
        MDC.put(key, String.valueOf(keyValues[i + 1]));
        keys.add(key);
      }
    }
    return keys;
  }
}
