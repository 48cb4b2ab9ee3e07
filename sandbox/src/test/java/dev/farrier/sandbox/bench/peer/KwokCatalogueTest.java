package dev.farrier.sandbox.bench.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.simulated.NodeResources;
import dev.farrier.catalog.InstanceTypeCatalog;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KwokCatalogueTest {
  private static final InstanceTypeCatalog CATALOG = InstanceTypeCatalog.load(InstanceTypeCatalog.DEFAULT_REGION);
  private static final KwokCatalogue CATALOGUE = KwokCatalogue.of(CATALOG);

  @Test
  void takesTheGeneralPurposeTypesOfGenerationFiveAndLater() {
    assertTrue(CATALOGUE.names().containsAll(List.of("c6a.large", "m5.xlarge", "r6g.2xlarge", "m7i.large", "c7g.4xlarge")));
    for (String name : List.of("c4.large", "t3.large", "p3.2xlarge", "m5.metal", "g5.xlarge", "c6id.large", "m5.8xlarge", "r5n.large", "c8g.large")) {
      assertFalse(CATALOGUE.names().contains(name), name);
    }
    assertTrue(CATALOGUE.types().size() >= 60 && CATALOGUE.types().size() <= KwokCatalogue.MAX_TYPES, "a realistic choice: " + CATALOGUE.types().size());
  }

  @Test
  void karpentersAllocatableIsFarriersSimulatedAllocatable() throws Exception {
    JsonNode entries = new ObjectMapper().readTree(CATALOGUE.json());
    assertEquals(CATALOGUE.types().size(), entries.size());
    Map<String, InstanceType> byName = new HashMap<>();
    CATALOGUE.types().forEach(t -> byName.put(t.name(), t));
    for (JsonNode entry : entries) {
      InstanceType type = byName.get(entry.get("name").asText());
      Map<String, Quantity> farrier = NodeResources.allocatable(type);
      JsonNode resources = entry.get("resources");
      // Karpenter's kwok provider takes 100m of CPU and 10Mi of memory off what the file gives.
      long kwokCpuMillis = KwokCatalogue.millis(new Quantity(resources.get("cpu").asText())) - 100;
      long kwokMemoryMiB = KwokCatalogue.mebibytes(new Quantity(resources.get("memory").asText())) - 10;
      assertEquals(KwokCatalogue.millis(farrier.get("cpu")), kwokCpuMillis, type.name());
      assertEquals(KwokCatalogue.mebibytes(farrier.get("memory")), kwokMemoryMiB, type.name());
      assertEquals(Long.toString(type.eniMaxPods()), resources.get("pods").asText(), type.name());
      assertEquals(farrier.get("ephemeral-storage"), new Quantity(resources.get("ephemeral-storage").asText()), type.name());
      assertEquals(type.kubernetesArch(), entry.get("architecture").asText());
    }
  }

  @Test
  void everyOfferingHasFarriersPriceZoneAndCapacityType() throws Exception {
    JsonNode entries = new ObjectMapper().readTree(CATALOGUE.json());
    JsonNode c6a = null;
    for (JsonNode e : entries) {
      if (e.get("name").asText().equals("c6a.large")) {
        c6a = e;
      }
    }
    InstanceType type = CATALOG.find("c6a.large").orElseThrow();
    assertEquals(type.offerings().size(), c6a.get("offerings").size());
    for (JsonNode offering : c6a.get("offerings")) {
      String capacityType = null;
      String zone = null;
      for (JsonNode requirement : offering.get("Requirements")) {
        assertEquals("In", requirement.get("operator").asText());
        switch (requirement.get("key").asText()) {
          case "karpenter.sh/capacity-type" -> capacityType = requirement.get("values").get(0).asText();
          case "topology.kubernetes.io/zone" -> zone = requirement.get("values").get(0).asText();
          default -> throw new AssertionError("unexpected requirement " + requirement);
        }
      }
      assertEquals(CATALOGUE.price("c6a.large", zone, capacityType).orElseThrow(), offering.get("Price").asDouble(), 1e-9);
      assertTrue(offering.get("Available").asBoolean());
    }
    assertTrue(CATALOGUE.price("c6a.large", "us-east-1a", "spot").orElseThrow() < CATALOGUE.price("c6a.large", "us-east-1a", "on-demand").orElseThrow());
    assertTrue(CATALOGUE.price("c6a.large", "mars-1a", "spot").isEmpty());
  }
}
