package dev.farrier.workflows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.temporal.common.converter.GlobalDataConverter;
import org.junit.jupiter.api.Test;

/**
 * What a refused Update sends back, as the worker's data converter writes it for the server (and so for the Temporal
 * UI's dialog): the reason and the type, and no stack trace under them.
 */
class RefusalsTest {
  @Test
  void aRefusalIsTheReasonWithoutAStackTrace() {
    var refused = assertThrows(Refusals.Refused.class, () -> Refusals.refuseIf(true, "it is not paused"));

    var failure = GlobalDataConverter.get().exceptionToFailure(refused);

    assertEquals("it is not paused", failure.getMessage());
    assertEquals(FailureTypes.REFUSED, failure.getApplicationFailureInfo().getType());
    assertEquals("", failure.getStackTrace(), "the reason only in the Temporal UI, not the validator's frames");
    assertFalse(GlobalDataConverter.get().exceptionToFailure(new IllegalStateException("x")).getStackTrace().isEmpty(),
        "a plain exception would carry them");
  }
}
