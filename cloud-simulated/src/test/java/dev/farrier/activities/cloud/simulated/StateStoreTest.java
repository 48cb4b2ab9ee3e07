package dev.farrier.activities.cloud.simulated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads parse the state file only when its bytes changed, and still see every write, this process's or another's;
 * the clouds of one process never share a network.
 */
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
        List.of(new StoredInstanceProfile("p2", "role", Map.of())), s.unavailableUntil(), s.faults(), s.addedSubnets(), s.roles(), s.reservations()), null, List.of()));
    assertEquals(size, Files.size(stateDir.resolve("state.json")), "a change that keeps the file's size");
    var second = reader.read();
    assertNotSame(first, second);
    assertEquals(List.of("p2"), profiles(second));

    addProfile(reader, "p3");
    assertEquals(List.of("p2", "p3"), profiles(reader.read()), "its own write");
    assertEquals(List.of("p2", "p3"), profiles(writer.read()));
  }

  /**
   * A cloud's network is derived from its directory's name, which gives only 256 of them: two clouds of one process
   * (one shared cluster) on the same network gave their first instances the same Node name, and the second was never
   * registered. Two directories with the same derived network are found by trying names.
   */
  @Test
  void twoCloudsOfOneProcessNeverShareANetworkEvenWhenTheirDirectoriesWouldGiveTheSameOne() {
    List<Path> dirs = directoriesDerivingOneNetwork(stateDir);
    int network = new StateStore(dirs.get(0)).read().network();
    assertNotEquals(network, new StateStore(dirs.get(1)).read().network());
    assertEquals(network, new StateStore(dirs.get(0)).read().network(), "another store of the same directory: the same network");
  }

  /** Two directories under {@code root} whose names derive the same network, found by trying names. */
  static List<Path> directoriesDerivingOneNetwork(Path root) {
    Map<Integer, Path> byDerived = new HashMap<>();
    for (int i = 0; ; i++) {
      Path dir = root.resolve("cloud-" + i).toAbsolutePath().normalize();
      Path earlier = byDerived.putIfAbsent(StateStore.derivedNetwork(dir), dir);
      if (earlier != null) {
        return List.of(earlier, dir);
      }
    }
  }
}
