package dev.farrier.activities.cloud.simulated;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The instances whose kubelet is up in one pass of {@link SimulatedKubelet}: running instances the simulation
 * launched (foreign ones boot nothing), split by whether their kubelet ever registers a Node. Instances of an image
 * that never joins ({@link AmiCatalog#neverJoins}) run like any other, as on EC2 with a broken AMI; only no Node
 * ever appears for them.
 */
record KubeletBoots(List<SimulatedInstance> joining, List<SimulatedInstance> neverJoining) {
  KubeletBoots {
    joining = List.copyOf(joining);
    neverJoining = List.copyOf(neverJoining);
  }

  static KubeletBoots of(List<SimulatedInstance> instances, AmiCatalog amis) {
    Map<Boolean, List<SimulatedInstance>> byNeverJoins = instances.stream()
        .filter(i -> !i.foreign() && StoredInstance.RUNNING.equals(i.instance().state()))
        .collect(Collectors.partitioningBy(i -> amis.neverJoins(i.instance().imageId())));
    return new KubeletBoots(byNeverJoins.get(false), byNeverJoins.get(true));
  }
}
