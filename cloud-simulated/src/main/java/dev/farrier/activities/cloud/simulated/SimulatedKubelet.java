package dev.farrier.activities.cloud.simulated;

import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
 * <p>Stateless across restarts: what to register is derived from the cloud's state and the Nodes that exist (a create
 * that finds its Node already there counts it as registered); the only memory is a cache of instances already seen
 * with a Node, which spares a create when nothing new is running, and of instances already reported as never joining
 * (below), which spares repeating the log line. As on EC2, a Node deleted while its instance keeps running is not
 * registered again (a kubelet registers once). Nodes of terminated instances are left to Farrier, which deletes them.
 * The instances new in a pass register side by side, up to {@value #REGISTRATIONS_AT_ONCE} at once, as their own
 * kubelets would: one after the other, a burst of launches waited here tens of seconds (issue 40).
 *
 * <p>A node of a GPU or Neuron type registers without its devices; its device plugins report them
 * {@code devicePluginDelay} later (a pass adds them to its status), so Farrier's initialization has to wait for them as
 * on EKS.
 *
 * <p>An instance of an image that never joins ({@link AmiCatalog#neverJoins}, a broken custom AMI) keeps running
 * but never gets a Node, so Farrier sees a launch that never registers; the kubelet logs that once per instance.
 */
public final class SimulatedKubelet implements AutoCloseable {
  public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(250);
  /** How long after registration a node's device plugins report its GPUs or Neuron devices, unless configured. */
  public static final Duration DEFAULT_DEVICE_PLUGIN_DELAY = Duration.ofSeconds(5);
  /** Registrations in flight at once within a pass (each its own kubelet on EC2). */
  static final int REGISTRATIONS_AT_ONCE = 16;
  private static final Logger log = LoggerFactory.getLogger(SimulatedKubelet.class);

  private final KubernetesClient client;
  private final SimulatedCloud cloud;
  private final Duration interval;
  private final Object passLock = new Object();
  private final Set<String> registered = new HashSet<>();
  private final Set<String> neverJoining = new HashSet<>();
  private final Duration devicePluginDelay;
  /** Node name -> when its device plugins report its devices; registrations add to it side by side. */
  private final Map<String, Instant> devicesDue = new ConcurrentHashMap<>();
  private ScheduledExecutorService loop;

  public SimulatedKubelet(KubernetesClient client, SimulatedCloud cloud) {
    this(client, cloud, DEFAULT_INTERVAL);
  }

  public SimulatedKubelet(KubernetesClient client, SimulatedCloud cloud, Duration interval) {
    this(client, cloud, interval, DEFAULT_DEVICE_PLUGIN_DELAY);
  }

  /**
   * @param devicePluginDelay how long after registering a node of a GPU or Neuron type its device plugins take to
   *                          report the devices ({@link NodeResources#devices}); until then the node has none, as an
   *                          EKS node whose plugin DaemonSet is still starting
   */
  public SimulatedKubelet(KubernetesClient client, SimulatedCloud cloud, Duration interval, Duration devicePluginDelay) {
    this.client = client;
    this.cloud = cloud;
    this.interval = interval;
    this.devicePluginDelay = devicePluginDelay;
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
      List<String> created = registerUnseen();
      reportDevices();
      return created;
    }
  }

  /**
   * Adds the devices of each node whose device plugins are due to its status; a node gone meanwhile is forgotten, a
   * failed write is tried again next pass.
   */
  private void reportDevices() {
    Instant now = cloud.config().clock().instant();
    for (var due : List.copyOf(devicesDue.entrySet())) {
      if (due.getValue().isAfter(now)) {
        continue;
      }
      try {
        Node node = client.nodes().withName(due.getKey()).get();
        Optional<InstanceType> type = node == null ? Optional.empty()
            : cloud.catalog().find(node.getMetadata().getLabels().get(WellKnown.INSTANCE_TYPE_LABEL));
        if (type.isPresent() && !node.getStatus().getAllocatable().keySet().containsAll(NodeResources.devices(type.get()).keySet())) {
          node.getStatus().getCapacity().putAll(NodeResources.devices(type.get()));
          node.getStatus().getAllocatable().putAll(NodeResources.devices(type.get()));
          client.nodes().resource(node).patchStatus();
          log.atInfo().setMessage("simulated device plugins reported the node's devices").addKeyValue("node", due.getKey())
              .addKeyValue("devices", NodeResources.devices(type.get()).keySet()).log();
        }
        devicesDue.remove(due.getKey());
      } catch (KubernetesClientException e) {
        log.warn("simulated device plugins could not report node {}'s devices: {}", due.getKey(), e.toString());
      }
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
    List<Future<Registration>> registrations = new ArrayList<>();
    try (ExecutorService pass = Executors.newFixedThreadPool(REGISTRATIONS_AT_ONCE, Thread.ofVirtual().name("simulated-kubelet-", 0).factory())) {
      unseen.forEach(instance -> registrations.add(pass.submit(() -> register(instance))));
    }
    List<String> created = new ArrayList<>();
    for (int i = 0; i < unseen.size(); i++) {
      SimulatedInstance instance = unseen.get(i);
      Future<Registration> registration = registrations.get(i);
      if (registration.state() == Future.State.FAILED) {
        // The API server's hiccup: the next pass tries this instance again.
        log.warn("simulated kubelet could not register instance {}: {}", instance.instance().id(), registration.exceptionNow().toString());
        continue;
      }
      switch (registration.resultNow()) {
        case CREATED -> {
          created.add(instance.instance().privateDnsName());
          registered.add(instance.instance().id());
        }
        case PRESENT -> registered.add(instance.instance().id());
        case UNKNOWN_TYPE -> { }
      }
    }
    return created;
  }

  /** What one pass did for one instance. */
  private enum Registration { CREATED, PRESENT, UNKNOWN_TYPE }

  /**
   * Creates the instance's Node; one that exists already (registered before a restart, or by another kubelet loop) is
   * left as it is, with a warning when another instance holds the name.
   */
  private Registration register(SimulatedInstance instance) {
    Optional<InstanceType> type = cloud.catalog().find(instance.instance().instanceType());
    if (type.isEmpty()) {
      return Registration.UNKNOWN_TYPE;
    }
    Node node = SimulatedNodes.node(instance, type.get(), cloud.amis().findById(instance.instance().imageId()), cloud.config().region(),
        cloud.network().zoneId(instance.instance().zone()));
    String name = node.getMetadata().getName();
    if (!type.get().extendedResources().isEmpty()) {
      // Registered before a restart too: the report checks what the node has and adds only what is missing.
      devicesDue.putIfAbsent(name, cloud.config().clock().instant().plus(devicePluginDelay));
    }
    Node created;
    try {
      created = client.nodes().resource(node).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
      Node existing = client.nodes().withName(name).get();
      String providerId = existing == null || existing.getSpec() == null ? null : existing.getSpec().getProviderID();
      if (existing != null && !instance.instance().providerId().equals(providerId)) {
        // Another simulated cloud on the same cluster used this address; say so rather than fail later.
        log.atWarn().setMessage("simulated kubelet found the node name taken by another instance").addKeyValue("node", name)
            .addKeyValue("instance", instance.instance().id()).addKeyValue("providerID", providerId).log();
      }
      return Registration.PRESENT;
    }
    if (created.getStatus() == null || created.getStatus().getCapacity() == null || created.getStatus().getCapacity().isEmpty()) {
      created.setStatus(node.getStatus());
      client.nodes().resource(created).patchStatus();
    }
    log.atInfo().setMessage("simulated kubelet registered node").addKeyValue("node", name).addKeyValue("instance", instance.instance().id()).log();
    return Registration.CREATED;
  }

  private static Set<String> ids(List<SimulatedInstance> instances) {
    return instances.stream().map(i -> i.instance().id()).collect(Collectors.toSet());
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
