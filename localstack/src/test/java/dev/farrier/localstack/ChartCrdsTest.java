package dev.farrier.localstack;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * deploy/crds is the CRDs' one source (the sandbox and kubectl users read it); the chart's crds/ holds copies because
 * a chart can only read files inside its own directory and a packaged chart must not depend on symbolic links.
 */
class ChartCrdsTest {
  private static final Path CHART = HelmChart.locate(Path.of(""));
  private static final Path DEPLOY_CRDS = CHART.getParent().getParent().resolve("crds");

  @Test
  void theChartsCrdsAreByteForByteTheOnesInDeployCrds() throws IOException {
    List<String> source = names(DEPLOY_CRDS);
    assertEquals(source, names(CHART.resolve("crds")), "copy them again: cp deploy/crds/*.yaml deploy/charts/farrier/crds/");
    for (String name : source) {
      assertArrayEquals(Files.readAllBytes(DEPLOY_CRDS.resolve(name)), Files.readAllBytes(CHART.resolve("crds").resolve(name)),
          name + " differs from deploy/crds; copy it again: cp deploy/crds/*.yaml deploy/charts/farrier/crds/");
    }
    assertEquals(4, source.size(), "NodePool, NodeClaim, EC2NodeClass, NodeOverlay");
  }

  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml")).sorted().toList();
    }
  }
}
