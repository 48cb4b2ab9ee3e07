package dev.farrier.activities.cloud.simulated;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.worker.cloud.CloudPlugin;
import io.micronaut.context.env.PropertySource;
import io.micronaut.context.env.PropertySourcePropertyResolver;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class SimulatedCloudPluginTest {
  @Test
  void isFoundOnTheClassPathByItsName() {
    assertTrue(ServiceLoader.load(CloudPlugin.class).stream().anyMatch(p -> p.get().name().equals("simulated")));
  }

  @Test
  void refusesToOpenWithoutItsStateDirAndNamesTheSetting() {
    var properties = new PropertySourcePropertyResolver(PropertySource.of(Map.of("farrier.simulated.boot-delay", "1s")));
    var e = assertThrows(IllegalArgumentException.class, () -> new SimulatedCloudPlugin().open(null, null, properties));
    assertTrue(e.getMessage().contains("FARRIER_SIMULATED_STATE_DIR"), e.getMessage());
  }
}
