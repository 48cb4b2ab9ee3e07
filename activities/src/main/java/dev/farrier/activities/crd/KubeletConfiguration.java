package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/** {@code spec.kubelet} of an EC2NodeClass (moved there from the NodePool in v1); quantities stay strings as written. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record KubeletConfiguration(List<String> clusterDNS, Integer maxPods, Integer podsPerCore, Map<String, String> systemReserved,
    Map<String, String> kubeReserved, Map<String, String> evictionHard, Map<String, String> evictionSoft,
    Map<String, String> evictionSoftGracePeriod, Integer evictionMaxPodGracePeriod, Integer imageGCHighThresholdPercent,
    Integer imageGCLowThresholdPercent, Boolean cpuCFSQuota) {}
