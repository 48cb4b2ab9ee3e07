package dev.farrier.architecture.violations.b;

import dev.farrier.architecture.violations.a.CallsB;

/** The other half of the deliberate package cycle. */
public final class CallsA {
  public int next(CallsB other) {
    return other.hashCode();
  }
}
