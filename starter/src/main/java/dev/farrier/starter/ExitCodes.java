package dev.farrier.starter;

import java.util.LinkedHashMap;
import java.util.Map;

/** What {@code farrier} exits with, for scripts; every command's help lists them (and docs/operate.md repeats them). */
final class ExitCodes {
  private ExitCodes() {}

  static final int DONE = 0;
  /** Temporal cannot be reached, or something unexpected failed. */
  static final int ERROR = 1;
  /** Picocli's code for bad input: an unknown option, a missing argument; and manifests migrate cannot read. */
  static final int USAGE = 2;
  /** The workflow's validator refused the action: nothing changed. */
  static final int REFUSED = 3;
  /** No such workflow (or it has ended and the action needs a running one). */
  static final int NOT_FOUND = 4;
  /** {@code upgrade --wait}: the rollout failed or was aborted, and was rolled back; the result says why. */
  static final int FAILED = 5;
  /** {@code upgrade --wait}: the wait timed out; the rollout still runs (the same command attaches to it again). */
  static final int TIMED_OUT = 6;

  /** {@code migrate --check}: something in the input needs a person (the reports say what). */
  static final int NEEDS_PERSON = 7;

  /** {@code upgrade --dry-run} / {@code upgrade preview}: no node to replace; the real run would change nothing. */
  static final int NOTHING_TO_REPLACE = 8;

  static Map<String, String> helpList() {
    var codes = new LinkedHashMap<String, String>();
    codes.put(Integer.toString(DONE), "done");
    codes.put(Integer.toString(ERROR), "error: Temporal cannot be reached, or something unexpected failed");
    codes.put(Integer.toString(USAGE), "usage error: unknown option, missing argument or value; migrate: input it cannot migrate (nothing written)");
    codes.put(Integer.toString(REFUSED), "refused: the workflow refused the action, or another rollout owns the NodePool (nothing changed)");
    codes.put(Integer.toString(NOT_FOUND), "not found: no such replacement or rollout (or it has ended)");
    codes.put(Integer.toString(FAILED), "upgrade --wait: the rollout failed or was aborted, and was rolled back");
    codes.put(Integer.toString(TIMED_OUT), "upgrade --wait: timed out waiting; the rollout still runs");
    codes.put(Integer.toString(NEEDS_PERSON), "migrate --check: something needs a person (see the reports)");
    codes.put(Integer.toString(NOTHING_TO_REPLACE), "upgrade --dry-run / preview: nothing to replace (every node on the target)");
    return codes;
  }
}
