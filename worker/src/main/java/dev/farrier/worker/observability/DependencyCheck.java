package dev.farrier.worker.observability;

/** One thing readiness depends on; {@link #check} returns when it answers and throws, within its own deadline, when not. */
public interface DependencyCheck {
  /** What {@code /readyz} names when this is down ({@code temporal}, {@code kubernetes}). */
  String name();

  void check() throws Exception;
}
