package dev.farrier.workflows.upgrade;

import dev.farrier.model.ReplacementResult;
import dev.farrier.model.WorkloadRef;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The slots of a rolling rollout in flight, by the claim each replaces, in the order they opened: its replacement, its
 * gate (run on its own once the replacement is done: null when it passed, else why not) and the workloads the gate
 * watches. Workflow-local (promises): what continue-as-new takes along is {@link #carry}.
 */
final class Slots {
  /** One slot's gate, given its claim, its replacement and the workloads moved off its old node. */
  interface Gate {
    String of(String claim, Promise<ReplacementResult> replacement, List<WorkloadRef> moved);
  }

  /** How a slot that has come to its end is counted: {@code gateFailed} null when its gate passed. */
  interface Closing {
    void closed(String claim, Promise<ReplacementResult> replacement, String gateFailed);
  }

  private final Gate gate;
  private final Map<String, Promise<ReplacementResult>> replacements = new LinkedHashMap<>();
  private final Map<String, Promise<String>> gates = new LinkedHashMap<>();
  private final Map<String, List<WorkloadRef>> watched = new HashMap<>();

  Slots(Gate gate) {
    this.gate = gate;
  }

  /** Opens a slot for {@code claim}'s replacement and starts its gate (a workflow thread of its own). */
  void open(String claim, Promise<ReplacementResult> replacement, List<WorkloadRef> moved) {
    replacements.put(claim, replacement);
    watched.put(claim, moved);
    gates.put(claim, Async.function(() -> gate.of(claim, replacement, moved)));
  }

  /** Closes the slots whose gate has ended, in the order they opened, each through {@code close}; true when any did. */
  boolean closeDone(Closing close) {
    boolean freed = false;
    for (var it = gates.entrySet().iterator(); it.hasNext(); ) {
      var slot = it.next();
      if (slot.getValue().isCompleted()) {
        it.remove();
        freed = true;
        close.closed(slot.getKey(), replacements.remove(slot.getKey()), slot.getValue().get());
      }
    }
    return freed;
  }

  /** The replacements of the slots open (and of none closed), by claim. */
  Map<String, Promise<ReplacementResult>> replacements() {
    return replacements;
  }

  int size() {
    return gates.size();
  }

  boolean isEmpty() {
    return gates.isEmpty();
  }

  List<String> claims() {
    return List.copyOf(gates.keySet());
  }

  /** Some slot's gate has come to its end (and with it, its replacement). */
  boolean anyDone() {
    return gates.values().stream().anyMatch(Promise::isCompleted);
  }

  /** The slots in flight, for the next run: each with what its gate watches and its replacement's end, if known. */
  List<CarriedSlot> carry() {
    List<CarriedSlot> carried = new ArrayList<>();
    for (String claim : gates.keySet()) {
      Promise<ReplacementResult> replacement = replacements.get(claim);
      List<WorkloadRef> moved = watched.getOrDefault(claim, List.of());
      if (!replacement.isCompleted()) {
        carried.add(new CarriedSlot(claim, moved, null, null));
      } else if (replacement.getFailure() != null) {
        carried.add(new CarriedSlot(claim, moved, null, Replacements.reasonOf(replacement.getFailure())));
      } else {
        carried.add(new CarriedSlot(claim, moved, replacement.get(), null));
      }
    }
    return carried;
  }
}
