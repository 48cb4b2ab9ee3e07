package dev.farrier.activities.cloud.simulated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads parse the state file only when its bytes changed, and still see every write, this process's or another's. */
class StateStoreTest {
  @TempDir
  Path stateDir;

  private static void addProfile(StateStore store, String name) {
    store.mutate(s -> StateStore.Change.of(s.withInstanceProfile(new StoredInstanceProfile(name, "role", Map.of())), null, List.of()));
  }

  private static List<String> profiles(CloudState state) {
    return state.instanceProfiles().stream().map(StoredInstanceProfile::name).toList();
  }

  @Test
  void anUnchangedFileIsParsedOnceAndAWriteOfTheSameSizeByAnotherStoreIsSeen() throws Exception {
    var writer = new StateStore(stateDir);
    var reader = new StateStore(stateDir); // another process's store: its own memory of the last read
    addProfile(writer, "p1");
    long size = Files.size(stateDir.resolve("state.json"));

    var first = reader.read();
    assertSame(first, reader.read(), "the same bytes are not parsed again");
    assertEquals(List.of("p1"), profiles(first));

    writer.mutate(s -> StateStore.Change.of(new CloudState(s.network(), s.launches(), s.instances(), s.exhaustedOfferings(),
        List.of(new StoredInstanceProfile("p2", "role", Map.of())), s.unavailableUntil(), s.faults()), null, List.of()));
    assertEquals(size, Files.size(stateDir.resolve("state.json")), "a change that keeps the file's size");
    var second = reader.read();
    assertNotSame(first, second);
    assertEquals(List.of("p2"), profiles(second));

    addProfile(reader, "p3");
    assertEquals(List.of("p2", "p3"), profiles(reader.read()), "its own write");
    assertEquals(List.of("p2", "p3"), profiles(writer.read()));
  }
}
