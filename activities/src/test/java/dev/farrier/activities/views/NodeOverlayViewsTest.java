package dev.farrier.activities.views;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.Offering;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.Manifests;
import dev.farrier.activities.crd.NodeOverlay;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.model.WellKnown;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Which overlays stand is judged against the instance types each NodePool is offered as its EC2NodeClass's nodes are
 * labelled: two overlays of equal weight pricing Windows nodes conflict only where a NodePool launches Windows nodes.
 */
class NodeOverlayViewsTest {
  private static final List<InstanceType> CATALOG = List.of(new InstanceType("m5.large", "x86_64", 2, 8192, 0, "", "", 3, 10, false, 0,
      List.of(new Offering("us-east-1a", WellKnown.CAPACITY_ON_DEMAND, 0.096, true))));

  private static NodeOverlay windowsOverlay(String name) {
    return Manifests.SERIALIZATION.unmarshal("""
        apiVersion: karpenter.sh/v1alpha1
        kind: NodeOverlay
        metadata:
          name: %s
        spec:
          weight: 5
          requirements:
            - key: kubernetes.io/os
              operator: In
              values: ["windows"]
          price: "0.5"
        """.formatted(name), NodeOverlay.class);
  }

  private static NodePool pool(String nodeClass) {
    return Manifests.SERIALIZATION.unmarshal("""
        apiVersion: karpenter.sh/v1
        kind: NodePool
        metadata:
          name: pool
        spec:
          template:
            spec:
              nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: %s}
              requirements: []
        """.formatted(nodeClass), NodePool.class);
  }

  private static EC2NodeClass nodeClass(String name, String amiFamily) {
    return Manifests.SERIALIZATION.unmarshal("""
        apiVersion: karpenter.k8s.aws/v1
        kind: EC2NodeClass
        metadata:
          name: %s
        spec:
          amiFamily: %s
          amiSelectorTerms: [{id: ami-0123456789abcdef0}]
        """.formatted(name, amiFamily), EC2NodeClass.class);
  }

  @Test
  void overlaysOfEqualWeightOnWindowsNodesConflictOnlyForANodePoolOfAWindowsClass() {
    var overlays = List.of(windowsOverlay("a"), windowsOverlay("b"));
    var classes = Map.of("win", nodeClass("win", "Windows2022"), "linux", nodeClass("linux", "AL2023"));

    assertEquals(List.of("a"), List.copyOf(NodeOverlayViews.resolve(overlays, List.of(pool("win")), classes, CATALOG).conflicts().keySet()));
    assertEquals(Map.of(), NodeOverlayViews.resolve(overlays, List.of(pool("linux")), classes, CATALOG).conflicts());
    assertEquals(Map.of(), NodeOverlayViews.resolve(overlays, List.of(pool("missing")), classes, CATALOG).conflicts());
  }
}
