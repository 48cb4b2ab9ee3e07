package dev.farrier.sandbox.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartsTest {
  @Test
  void aDistributionRisesFromTheSmallestValueToOneAtTheLargest() {
    var line = Charts.distribution("pods", List.of(3.0, 1.0, 2.0, 2.0));
    assertEquals(4, line.points().size());
    assertArrayEquals(new double[] {1.0, 0.25}, line.points().getFirst());
    assertArrayEquals(new double[] {2.0, 0.75}, line.points().get(2));
    assertArrayEquals(new double[] {3.0, 1.0}, line.points().getLast());
  }

  @Test
  void aChartIsAPngOfTheGivenSize(@TempDir Path dir) throws Exception {
    Path png = Charts.lines(dir.resolve("figures/x.png"), "title", "x", "y",
        List.of(new Charts.Line("a", List.of(new double[] {0, 1}, new double[] {1, 2}))));
    assertTrue(Files.size(png) > 0);
    var image = ImageIO.read(png.toFile());
    assertEquals(960, image.getWidth());
    assertEquals(540, image.getHeight());
  }
}
