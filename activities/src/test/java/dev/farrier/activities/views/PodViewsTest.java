package dev.farrier.activities.views;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.WellKnown;
import dev.farrier.planner.HostPort;
import dev.farrier.planner.PodAffinityTerm;
import dev.farrier.planner.PodSpecView;
import dev.farrier.planner.TopologySpread;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How a Pod object becomes the scheduler's view of it. */
class PodViewsTest {
  private static Pod pod(String yaml) {
    return Serialization.unmarshal(yaml, Pod.class);
  }

  @Test
  void requestsAreTheLargerOfContainersAndTheLargestInitContainerPlusOverhead() {
    PodSpecView view = PodViews.of(pod("""
        apiVersion: v1
        kind: Pod
        metadata: {name: p, namespace: ns}
        spec:
          overhead: {cpu: 100m, memory: 64Mi}
          initContainers:
            - {name: i1, image: x, resources: {requests: {cpu: "2", memory: 128Mi}}}
            - {name: i2, image: x, resources: {requests: {cpu: 500m, memory: 1Gi}}}
          containers:
            - {name: a, image: x, resources: {requests: {cpu: 500m, memory: 256Mi, nvidia.com/gpu: "1"}}}
            - {name: b, image: x, resources: {requests: {cpu: 500m, memory: 256Mi}}}
        """));
    assertEquals(2100, view.requests().milliCpu(), "init 2 cpu beats containers' 1, plus overhead");
    assertEquals((1024 + 64) * (1L << 20), view.requests().memoryBytes(), "init 1Gi beats containers' 512Mi, plus overhead");
    assertEquals(1L, view.requests().extended().get("nvidia.com/gpu"));
  }

  @Test
  void sidecarInitContainersAddToTheContainersAndToEveryLaterInitContainer() {
    PodSpecView view = PodViews.of(pod("""
        apiVersion: v1
        kind: Pod
        metadata: {name: p, namespace: ns}
        spec:
          initContainers:
            - {name: before, image: x, resources: {requests: {cpu: 300m, memory: 64Mi}}}
            - {name: proxy, image: x, restartPolicy: Always, resources: {requests: {cpu: 500m, memory: 256Mi}}}
            - {name: migrate, image: x, resources: {requests: {cpu: "1", memory: 128Mi}}}
          containers:
            - {name: a, image: x, resources: {requests: {cpu: 600m, memory: 512Mi}}}
        """));
    assertEquals(1500, view.requests().milliCpu(), "migrate 1 cpu runs beside the 500m sidecar started before it");
    assertEquals(768 * (1L << 20), view.requests().memoryBytes(), "the sidecar's 256Mi runs beside the container's 512Mi");
  }

  @Test
  void topologySpreadFoldsMatchLabelKeysAndReadsWhenUnsatisfiable() {
    PodSpecView view = PodViews.of(pod("""
        apiVersion: v1
        kind: Pod
        metadata: {name: p, namespace: ns, labels: {app: web, pod-template-hash: abc}}
        spec:
          containers: [{name: a, image: x}]
          topologySpreadConstraints:
            - {maxSkew: 2, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway, minDomains: 3,
               labelSelector: {matchLabels: {app: web}}, matchLabelKeys: [pod-template-hash]}
            - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule}
        """));
    TopologySpread zone = view.topologySpread().get(0);
    assertEquals(2, zone.maxSkew());
    assertFalse(zone.doNotSchedule());
    assertEquals(3, zone.minDomains());
    assertEquals(Map.of("app", "web", "pod-template-hash", "abc"), zone.selector().matchLabels());
    TopologySpread host = view.topologySpread().get(1);
    assertTrue(host.doNotSchedule());
    assertFalse(host.selector().matches(Map.of("app", "web")), "no labelSelector selects nothing");
    assertEquals(Map.of("app", "web", "pod-template-hash", "abc"), view.labels());
  }

  @Test
  void topologySpreadPoliciesDefaultAsTheKubeSchedulersAndAreReadWhenSet() {
    PodSpecView view = PodViews.of(pod("""
        apiVersion: v1
        kind: Pod
        metadata: {name: p, namespace: ns, labels: {app: web}}
        spec:
          containers: [{name: a, image: x}]
          topologySpreadConstraints:
            - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule}
            - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule,
               nodeAffinityPolicy: Ignore, nodeTaintsPolicy: Honor}
            - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule,
               nodeAffinityPolicy: Honor, nodeTaintsPolicy: Ignore}
        """));
    List<TopologySpread> spreads = view.topologySpread();
    assertTrue(spreads.get(0).honorNodeAffinity(), "nodeAffinityPolicy defaults to Honor");
    assertFalse(spreads.get(0).honorNodeTaints(), "nodeTaintsPolicy defaults to Ignore");
    assertFalse(spreads.get(1).honorNodeAffinity());
    assertTrue(spreads.get(1).honorNodeTaints());
    assertTrue(spreads.get(2).honorNodeAffinity());
    assertFalse(spreads.get(2).honorNodeTaints());
  }

  @Test
  void hostPortsAreReadFromTheContainersWithTheirDefaults() {
    PodSpecView view = PodViews.of(pod("""
        apiVersion: v1
        kind: Pod
        metadata: {name: p, namespace: ns}
        spec:
          initContainers:
            - {name: i, image: x, ports: [{containerPort: 7000, hostPort: 7000}]}
          containers:
            - name: a
              image: x
              ports:
                - {containerPort: 80}
                - {containerPort: 8080, hostPort: 8080}
                - {containerPort: 53, hostPort: 5353, protocol: UDP, hostIP: 10.0.0.1}
        """));
    assertEquals(List.of(new HostPort("0.0.0.0", "TCP", 8080), new HostPort("10.0.0.1", "UDP", 5353)), view.hostPorts());
  }

  @Test
  void podAffinityTermsResolveNamespacesAndKeepWeights() {
    Pod p = pod("""
        apiVersion: v1
        kind: Pod
        metadata: {name: p, namespace: ns}
        spec:
          containers: [{name: a, image: x}]
          affinity:
            podAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
                - {topologyKey: topology.kubernetes.io/zone, labelSelector: {matchLabels: {app: db}}, namespaceSelector: {}}
            podAntiAffinity:
              preferredDuringSchedulingIgnoredDuringExecution:
                - weight: 30
                  podAffinityTerm:
                    topologyKey: kubernetes.io/hostname
                    labelSelector: {matchExpressions: [{key: app, operator: In, values: [web]}]}
                    namespaceSelector: {matchLabels: {team: a}}
            nodeAffinity:
              preferredDuringSchedulingIgnoredDuringExecution:
                - weight: 7
                  preference: {matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [us-east-1a]}]}
        """);
    var namespaces = NamespaceSelectors.lazy(() -> List.of(
        new NamespaceBuilder().withNewMetadata().withName("team-a").withLabels(Map.of("team", "a")).endMetadata().build(),
        new NamespaceBuilder().withNewMetadata().withName("team-b").withLabels(Map.of("team", "b")).endMetadata().build()));
    PodSpecView view = PodViews.of(p, namespaces, List.of());
    PodAffinityTerm db = view.podAffinity().get(0);
    assertTrue(db.required() && !db.anti() && db.allNamespaces());
    assertEquals(WellKnown.ZONE_LABEL, db.topologyKey());
    PodAffinityTerm web = view.podAffinity().get(1);
    assertTrue(web.anti() && !web.required());
    assertEquals(30, web.weight());
    assertEquals(Set.of("team-a"), web.namespaces());
    assertTrue(web.selects("ns", "team-a", Map.of("app", "web")));
    assertFalse(web.selects("ns", "ns", Map.of("app", "web")));
    assertEquals(7, view.preferredAffinity().getFirst().weight());
  }
}
