package dev.farrier.activities.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.ContainerImageBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class SlimItemStoreTest {
  @Test
  void storesAPodWithoutItsManagedFieldsAndEverythingElseAsItCame() {
    var store = new SlimItemStore<Pod>();
    Pod pod = new PodBuilder().withNewMetadata().withName("web-1").withNamespace("shop").addToLabels("app", "web")
        .withManagedFields(new ManagedFieldsEntryBuilder().withManager("kube-scheduler").withOperation("Update").build())
        .endMetadata().withNewSpec().withNodeName("node-a").endSpec().build();

    store.put(store.getKey(pod), pod);

    Pod kept = store.get("shop/web-1");
    assertNull(kept.getMetadata().getManagedFields());
    assertEquals("web", kept.getMetadata().getLabels().get("app"));
    assertEquals("node-a", kept.getSpec().getNodeName());
  }

  @Test
  void storesANodeWithoutItsImageList() {
    var store = new SlimItemStore<Node>();
    Node node = new NodeBuilder().withNewMetadata().withName("node-a").endMetadata().withNewSpec().withProviderID("aws:///i-1")
        .endSpec().withNewStatus().withImages(new ContainerImageBuilder().withNames("pause:3.7").withSizeBytes(300L).build())
        .addToAllocatable("cpu", new io.fabric8.kubernetes.api.model.Quantity("2")).endStatus().build();

    store.put(store.getKey(node), node);

    Node kept = store.get("node-a");
    assertNull(kept.getStatus().getImages());
    assertEquals("2", kept.getStatus().getAllocatable().get("cpu").getAmount());
    assertEquals(List.of("node-a"), store.keySet().toList());
  }
}
