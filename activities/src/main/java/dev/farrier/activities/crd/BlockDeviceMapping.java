package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/** One {@code blockDeviceMappings} entry; at most one is the {@code rootVolume} (kubelet's root directory). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record BlockDeviceMapping(String deviceName, BlockDevice ebs, Boolean rootVolume) {}
