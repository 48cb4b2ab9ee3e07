package dev.farrier.sandbox.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Creates many bare pods at once, as a scaled-up Deployment's pods arrive: several writers, so thousands reach the API
 * server within seconds. Each pod asks for {@code cpu} and {@code memory} and runs the pause image.
 */
public final class PodWriter {
  /** What the pods look like: their namespace, name prefix, label {@code app}, requests. */
  public record Shape(String namespace, String prefix, String app, String cpu, String memory) {}

  private PodWriter() {}

  /** Creates {@code count} pods named {@code prefix-0...} with {@code writers} threads; returns when the API server accepted each. */
  public static Map<String, Instant> create(KubernetesClient kube, Shape shape, int count, int writers) throws InterruptedException {
    Map<String, Instant> created = new ConcurrentHashMap<>();
    try (ExecutorService pool = Executors.newFixedThreadPool(writers)) {
      List<Future<?>> done = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        String name = shape.prefix() + "-" + i;
        done.add(pool.submit(() -> {
          kube.pods().inNamespace(shape.namespace()).resource(pod(shape, name)).create();
          created.put(name, Instant.now());
        }));
      }
      for (Future<?> f : done) {
        try {
          f.get();
        } catch (ExecutionException e) {
          throw new IllegalStateException("creating a pod failed", e.getCause());
        }
      }
    }
    return created;
  }

  static Pod pod(Shape shape, String name) {
    return new PodBuilder().withNewMetadata().withName(name).withNamespace(shape.namespace()).addToLabels("app", shape.app())
        .endMetadata().withNewSpec().addNewContainer().withName("pause").withImage("public.ecr.aws/eks-distro/kubernetes/pause:3.7")
        .withNewResources().addToRequests("cpu", new Quantity(shape.cpu())).addToRequests("memory", new Quantity(shape.memory()))
        .endResources().endContainer().endSpec().build();
  }
}
