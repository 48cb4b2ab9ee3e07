package dev.farrier.activities.cloud.simulated;

import dev.farrier.activities.cloud.InstanceType;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plays the kubelets of the simulated cloud's instances: every {@code interval} it registers a Node for each
 * running instance that has none, as the kubelet on a booted EC2 instance would (name = private DNS name, the
 * bootstrap's labels and taints plus the well-known labels, providerID, capacity, allocatable and nodeInfo; see
 * {@link NodeResources}). The Node carries {@code kwok.x-k8s.io/node: fake}, so kwok takes over from there: it
 * marks the node Ready and keeps its lease and heartbeats alive.
 *
 * <p>Stateless across restarts: what to register is derived from the cloud's state and the Nodes that exist; the
 * only memory is a cache of instances already seen with a Node, which spares listing Nodes when nothing new is
 * running, and of instances already reported as never joining (below), which spares repeating the log line. As on
 * EC2, a Node deleted while its instance keeps running is not registered again (a kubelet registers once). Nodes of
 * terminated instances are left to Farrier, which deletes them.
 *
 * <p>An instance of an image that never joins ({@link AmiCatalog#neverJoins}, a broken custom AMI) keeps running
 * but never gets a Node, so Farrier sees a launch that never registers; the kubelet logs that once per instance.
 */
public final class SimulatedKubelet implements AutoCloseable {
  public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(250);
  private static final Logger log = LoggerFactory.getLogger(SimulatedKubelet.class);

  private final KubernetesClient client;
  private final SimulatedCloud cloud;
  private final Duration interval;
  private final Object passLock = new Object();
  private final Set<String> registered = new HashSet<>();
  private final Set<String> neverJoining = new HashSet<>();
  private ScheduledExecutorService loop;

  public SimulatedKubelet(KubernetesClient client, SimulatedCloud cloud) {
    this(client, cloud, DEFAULT_INTERVAL);
  }

  public SimulatedKubelet(KubernetesClient client, SimulatedCloud cloud, Duration interval) {
    this.client = client;
    this.cloud = cloud;
    this.interval = interval;
  }

  /** Starts the background loop (one daemon thread); returns this for try-with-resources. */
  public synchronized SimulatedKubelet start() {
    if (loop == null) {
      loop = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("simulated-kubelet").daemon().factory());
      loop.scheduleWithFixedDelay(this::passSafely, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }
    return this;
  }

  private void passSafely() {
    try {
      registerNodes();
    } catch (RuntimeException e) {
      // The loop must outlive a hiccup of the API server; the next pass retries from scratch.
      log.warn("simulated kubelet pass failed: {}", e.toString());
    }
  }

  /**
   * One pass: registers a Node for every running instance without one, except those whose image never joins;
   * returns the names registered.
   */
  public List<String> registerNodes() {
    synchronized (passLock) {
      return registerUnseen();
    }
  }

  private List<String> registerUnseen() {
    KubeletBoots boots = KubeletBoots.of(cloud.instances(), cloud.amis());
    registered.retainAll(ids(boots.joining()));
    neverJoining.retainAll(ids(boots.neverJoining()));
    for (SimulatedInstance instance : boots.neverJoining()) {
      if (neverJoining.add(instance.instance().id())) {
        log.atInfo().setMessage("simulated kubelet will never register a node: the instance's image never joins")
            .addKeyValue("instance", instance.instance().id()).addKeyValue("image", instance.instance().imageId()).log();
      }
    }
    List<SimulatedInstance> unseen = boots.joining().stream().filter(i -> !registered.contains(i.instance().id())).toList();
    if (unseen.isEmpty()) {
      return List.of();
    }
    Map<String, String> providerIdByName = new HashMap<>();
    for (Node node : client.nodes().list().getItems()) {
      String providerId = node.getSpec() == null ? null : node.getSpec().getProviderID();
      providerIdByName.put(node.getMetadata().getName(), providerId == null ? "" : providerId);
    }
    Set<String> existingProviderIds = new HashSet<>(providerIdByName.values());
    List<String> created = new ArrayList<>();
    for (SimulatedInstance instance : unseen) {
      String name = instance.instance().privateDnsName();
      if (existingProviderIds.contains(instance.instance().providerId()) || providerIdByName.containsKey(name)) {
        if (!existingProviderIds.contains(instance.instance().providerId())) {
          // Another simulated cloud on the same cluster used this address; say so rather than fail later.
          log.atWarn().setMessage("simulated kubelet found the node name taken by another instance")
              .addKeyValue("node", name).addKeyValue("instance", instance.instance().id())
              .addKeyValue("providerID", providerIdByName.get(name)).log();
        }
        registered.add(instance.instance().id());
        continue;
      }
      Optional<InstanceType> type = cloud.catalog().find(instance.instance().instanceType());
      if (type.isEmpty()) {
        continue;
      }
      Node node = SimulatedNodes.node(instance, type.get(), cloud.amis().findById(instance.instance().imageId()), cloud.config().region());
      if (register(node)) {
        created.add(node.getMetadata().getName());
        log.atInfo().setMessage("simulated kubelet registered node").addKeyValue("node", node.getMetadata().getName())
            .addKeyValue("instance", instance.instance().id()).log();
      }
      registered.add(instance.instance().id());
    }
    return created;
  }

  private static Set<String> ids(List<SimulatedInstance> instances) {
    return instances.stream().map(i -> i.instance().id()).collect(Collectors.toSet());
  }

  /** Creates the Node; sets its status through the status subresource when the create dropped it. */
  private boolean register(Node node) {
    Node created;
    try {
      created = client.nodes().resource(node).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
        return false; // another kubelet loop (another process) registered it first
      }
      throw e;
    }
    if (created.getStatus() == null || created.getStatus().getCapacity() == null || created.getStatus().getCapacity().isEmpty()) {
      created.setStatus(node.getStatus());
      client.nodes().resource(created).patchStatus();
    }
    return true;
  }

  /** Stops the loop, waiting (up to 10 s) for a pass in progress to finish. */
  @Override
  public void close() {
    ScheduledExecutorService stopping;
    synchronized (this) {
      stopping = loop;
      loop = null;
    }
    if (stopping == null) {
      return;
    }
    stopping.shutdown();
    try {
      if (!stopping.awaitTermination(10, TimeUnit.SECONDS)) {
        stopping.shutdownNow();
      }
    } catch (InterruptedException e) {
      stopping.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
