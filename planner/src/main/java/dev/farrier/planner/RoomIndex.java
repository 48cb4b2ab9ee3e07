package dev.farrier.planner;

import java.util.Arrays;

/**
 * The room (CPU, memory, pod slots) of the targets a pod is offered to, in offer order, answering "the first target
 * from here with room for these requests" without visiting the full ones: a tree whose every node holds the largest
 * room of each resource below it, so a subtree none of whose targets has enough of some resource is skipped whole.
 * Without it first fit offers every pod to every claim, quadratic in the batch; with it a query costs about the
 * logarithm of the targets unless many have room in one resource and lack it in another.
 *
 * <p>The answer is exact, never a guess: the leaves hold each target's current room, set again whenever it changes.
 */
final class RoomIndex {
  /** Room of a target that takes nothing (and of the unused leaves). */
  static final long NONE = Long.MIN_VALUE;
  /** Room of a target whose room is not tracked here: always offered, its own checks decide. */
  static final long ANY = Long.MAX_VALUE;

  private int size;
  private int leaves = 16;
  private long[] cpu = filled(2 * leaves);
  private long[] memory = filled(2 * leaves);
  private long[] pods = filled(2 * leaves);

  private static long[] filled(int n) {
    long[] a = new long[n];
    Arrays.fill(a, NONE);
    return a;
  }

  int size() {
    return size;
  }

  /** Adds a target after the others with the given room; returns its index. */
  int add(long roomCpu, long roomMemory, long roomPods) {
    if (size == leaves) {
      grow();
    }
    set(size++, roomCpu, roomMemory, roomPods);
    return size - 1;
  }

  void set(int index, long roomCpu, long roomMemory, long roomPods) {
    int node = leaves + index;
    cpu[node] = roomCpu;
    memory[node] = roomMemory;
    pods[node] = roomPods;
    for (node >>>= 1; node > 0; node >>>= 1) {
      int left = 2 * node;
      cpu[node] = Math.max(cpu[left], cpu[left + 1]);
      memory[node] = Math.max(memory[left], memory[left + 1]);
      pods[node] = Math.max(pods[left], pods[left + 1]);
    }
  }

  /** The first index at or after {@code from} whose room is at least the given amounts in all three; size() if none. */
  int next(int from, long needCpu, long needMemory, long needPods) {
    if (from >= size) {
      return size;
    }
    int found = find(1, 0, leaves, from, needCpu, needMemory, needPods);
    return found < 0 ? size : found;
  }

  private int find(int node, int lo, int hi, int from, long needCpu, long needMemory, long needPods) {
    if (hi <= from || cpu[node] < needCpu || memory[node] < needMemory || pods[node] < needPods) {
      return -1;
    }
    if (hi - lo == 1) {
      return lo;
    }
    int mid = (lo + hi) >>> 1;
    int found = find(2 * node, lo, mid, from, needCpu, needMemory, needPods);
    return found >= 0 ? found : find(2 * node + 1, mid, hi, from, needCpu, needMemory, needPods);
  }

  private void grow() {
    int old = leaves;
    leaves *= 2;
    long[][] arrays = {cpu, memory, pods};
    for (int a = 0; a < 3; a++) {
      long[] next = filled(2 * leaves);
      System.arraycopy(arrays[a], old, next, leaves, old);
      for (int node = leaves - 1; node > 0; node--) {
        next[node] = Math.max(next[2 * node], next[2 * node + 1]);
      }
      arrays[a] = next;
    }
    cpu = arrays[0];
    memory = arrays[1];
    pods = arrays[2];
  }
}
