package dev.farrier.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link RoomIndex} answers as a scan over every target would, through growth and updates. */
class RoomIndexTest {

  @Test
  void findsTheFirstTargetWithRoomAsAScanWould() {
    for (int seed = 0; seed < 50; seed++) {
      Random random = new Random(seed);
      RoomIndex index = new RoomIndex();
      List<long[]> rooms = new ArrayList<>();
      for (int step = 0; step < 600; step++) {
        if (rooms.isEmpty() || random.nextInt(3) == 0) {
          long[] room = randomRoom(random);
          rooms.add(room);
          assertEquals(rooms.size() - 1, index.add(room[0], room[1], room[2]));
        } else {
          int i = random.nextInt(rooms.size());
          long[] room = randomRoom(random);
          rooms.set(i, room);
          index.set(i, room[0], room[1], room[2]);
        }
        int from = random.nextInt(rooms.size() + 2);
        long[] need = {random.nextInt(12), random.nextInt(12), random.nextInt(3)};
        assertEquals(scan(rooms, from, need), index.next(from, need[0], need[1], need[2]),
            "seed " + seed + " step " + step);
      }
      assertEquals(rooms.size(), index.size());
    }
  }

  private static long[] randomRoom(Random random) {
    return switch (random.nextInt(6)) {
      case 0 -> new long[] {RoomIndex.NONE, RoomIndex.NONE, RoomIndex.NONE};
      case 1 -> new long[] {RoomIndex.ANY, RoomIndex.ANY, RoomIndex.ANY};
      default -> new long[] {random.nextInt(14) - 2, random.nextInt(14) - 2, random.nextInt(4) - 1};
    };
  }

  private static int scan(List<long[]> rooms, int from, long[] need) {
    for (int i = from; i < rooms.size(); i++) {
      long[] r = rooms.get(i);
      if (r[0] >= need[0] && r[1] >= need[1] && r[2] >= need[2]) {
        return i;
      }
    }
    return rooms.size();
  }
}
