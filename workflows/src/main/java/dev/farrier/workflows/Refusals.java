package dev.farrier.workflows;

/**
 * How an Update validator refuses: an {@link IllegalStateException} whose message the caller sees (the {@code farrier}
 * CLI prints it with exit code 3, the Temporal UI in its dialog); the workflow's state is untouched.
 */
public final class Refusals {
  private Refusals() {}

  public static void refuseIf(boolean refused, String why) {
    if (refused) {
      throw new IllegalStateException(why);
    }
  }
}
