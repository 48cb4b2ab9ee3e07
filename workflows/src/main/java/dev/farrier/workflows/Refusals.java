package dev.farrier.workflows;

/**
 * How an Update validator refuses: a {@link Refused} whose message is the reason, and nothing else: no Java stack
 * trace, which the Temporal UI would show under the reason in its dialog (the {@code farrier} CLI prints the reason
 * with exit code 3). The workflow's state is untouched.
 */
public final class Refusals {
  private Refusals() {}

  /**
   * An Update refused by its validator; the failure's type is this class's name. It records no stack trace: where
   * the validator threw says nothing to an operator. (An {@code ApplicationFailure} thrown from a validator reaches
   * the caller as an SDK-internal failure instead, which is why this is a plain exception.)
   */
  public static final class Refused extends IllegalStateException {
    Refused(String why) {
      super(why);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this;
    }
  }

  public static void refuseIf(boolean refused, String why) {
    if (refused) {
      throw new Refused(why);
    }
  }
}
