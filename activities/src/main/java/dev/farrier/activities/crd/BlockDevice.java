package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/** The EBS volume of a block device mapping; {@code volumeSize} as written ({@code 100Gi}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record BlockDevice(Boolean deleteOnTermination, Boolean encrypted, Long iops, String kmsKeyID, String snapshotID, Long throughput,
    String volumeSize, String volumeType) {}
